/**
 * The planning gates as VS Code language model tools (issue 18 item 1): any agent in VS Code's
 * chat (Copilot's agent mode, `#vtplanValidate` …) validates plans, checks commands against the
 * read-only policy, keeps the task checklist and saves a ready plan. The schemas and handlers are
 * the shared ones of src/core/gates (the MCP server reads the same table); this file only adapts
 * them to `vscode.lm`.
 *
 * Registration is cheap: only the names are registered at activation, and the gates (validator,
 * shell policy, tracker) load from their own bundle (dist/gate-tools.js) on the first call. Every
 * call works in the chat session's folder (session-folders.ts). Writing calls (savePlan, tracker
 * changes) ask for confirmation and are refused in an untrusted folder. A saved plan is offered
 * for approval in VS Code ("Ready to code?", plan-approval-offer.ts), never approved by the tool.
 */
import * as vscode from 'vscode';
import type { GateName } from '../core/gates/gate';
import { confirmationFor, invocationMessage, writes } from './lm-tool-confirmations';
import { LM_TOOLS, type LmToolEntry } from './lm-tool-manifest';
import { loadGateTools, offerApproval } from './plan-approval-offer';
import type { SessionFolders } from './session-folders';
import type { TasksViewModel } from './tasks-view';

export interface LmToolDeps {
  folders: SessionFolders;
  tasks: TasksViewModel;
  log: vscode.LogOutputChannel;
}

/** A writing call in an untrusted folder; VS Code hands the message to the model. */
class UntrustedWorkspaceError extends Error {
  constructor(tool: string) {
    super(
      `${tool} was refused: this folder is not trusted, and the call would write under .vtcode/. The read-only calls still work (vtplan_validatePlan, vtplan_checkCommand, vtplan_taskTracker with action "list"). Ask the user to trust the folder (Manage Workspace Trust), then call again.`,
    );
    this.name = 'UntrustedWorkspaceError';
  }
}

class GateTool implements vscode.LanguageModelTool<object> {
  private readonly gate: GateName;

  constructor(
    private readonly entry: LmToolEntry,
    private readonly workbench: () => LmToolDeps,
  ) {
    this.gate = entry.gate;
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<object>): vscode.PreparedToolInvocation {
    // A call that will be refused asks nothing: invoke() says why.
    const confirmationMessages = vscode.workspace.isTrusted ? confirmationFor(this.gate, options.input) : undefined;
    return {
      invocationMessage: invocationMessage(this.gate),
      ...(confirmationMessages ? { confirmationMessages } : {}),
    };
  }

  /** A refused or failed gate (bad input with the zod message, a plan not ready to save …) is thrown: VS Code gives the model its message as an error. */
  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<object>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const writing = writes(this.gate, options.input);
    if (writing && !vscode.workspace.isTrusted) throw new UntrustedWorkspaceError(this.entry.name);
    const deps = this.workbench();
    const folder = await deps.folders.resolve();
    const gates = await loadGateTools();
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const result = await gates.runGate(
      this.gate,
      options.input,
      folder.uri.fsPath,
      (plan) => void offerApproval({ log: deps.log, tasks: () => deps.tasks }, folder.uri.fsPath, plan),
    );
    // The Tasks view shows the change now (its folder watcher would, a moment later).
    if (writing && this.gate === 'taskTracker') await deps.tasks.refresh();
    if (!result.ok) throw new Error(result.text);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
  }
}

/**
 * Registers the tools of package.json's `languageModelTools` for the extension's lifetime. The
 * workbench they need (folders, Tasks view) is asked for on the first call, not at activation.
 */
export function registerLmTools(context: vscode.ExtensionContext, workbench: () => LmToolDeps): void {
  for (const entry of LM_TOOLS)
    context.subscriptions.push(vscode.lm.registerTool(entry.name, new GateTool(entry, workbench)));
}
