/** Loads plan-model.ts on first use (see there why it is a bundle of its own). */
let loading: Promise<typeof import('./plan-model.js')> | null = null;

export function loadPlanModel(): Promise<typeof import('./plan-model.js')> {
  loading ??= import('./plan-model.js');
  return loading;
}
