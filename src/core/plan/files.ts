/**
 * Plan file names and raw content (file-formats.md), kept apart from the plan model so the
 * extension's activation code can recognise plan files without loading markdown-it.
 */
export const PLANS_DIR = '.vtcode/plans';

/** Plans saved through the gates by another process, awaiting approval in VS Code (core/gates/approval-records.ts). */
export const APPROVALS_DIR = '.vtcode/approvals';

/** A plan's text as written, `\n` line endings and one trailing newline (a user's file is read and shown as it is). */
export function planFileContent(plan: string): string {
  return `${plan.replace(/\r\n?/g, '\n').trim()}\n`;
}

/** True for `.vtcode/plans/<name>.md` paths that are plan files (not tracker sidecars). */
export function isPlanFilePath(filePath: string): boolean {
  const normalized = filePath.replace(/\\/g, '/');
  return /(?:^|\/)\.vtcode\/plans\/[^/]+\.md$/.test(normalized) && !normalized.endsWith('.tasks.md');
}
