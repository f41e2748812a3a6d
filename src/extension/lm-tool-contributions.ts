/**
 * package.json's `contributes.languageModelTools`, generated: the VS Code details of
 * lm-tool-manifest.ts with each gate's model description and input schema (src/core/gates), so
 * the tools VS Code offers models say exactly what the gates accept. `node scripts/sync-lm-tools.mjs`
 * writes it; a unit test fails while package.json differs. Not bundled into the extension.
 */
import { findGate, gateJsonSchema } from '../core/gates';
import { LM_TOOLS } from './lm-tool-manifest';

/** One `contributes.languageModelTools` entry, in package.json's key order. */
export interface LmToolContribution {
  name: string;
  toolReferenceName: string;
  displayName: string;
  modelDescription: string;
  userDescription: string;
  canBeReferencedInPrompt: true;
  icon: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

/**
 * Every tool's contribution. The schema's `$schema` (draft 2020-12, which zod names) is left out:
 * VS Code checks the contribution against its own draft and hands models the schema as it is.
 */
export function lmToolContributions(): LmToolContribution[] {
  return LM_TOOLS.map((entry) => {
    const gate = findGate(entry.gate);
    const { $schema: _draft, ...inputSchema } = gateJsonSchema(gate);
    return {
      name: entry.name,
      toolReferenceName: entry.toolReferenceName,
      displayName: entry.displayName,
      modelDescription: gate.description,
      userDescription: entry.userDescription,
      canBeReferencedInPrompt: true,
      icon: entry.icon,
      tags: entry.tags,
      inputSchema,
    };
  });
}
