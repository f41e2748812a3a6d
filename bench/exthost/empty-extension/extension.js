// BENCH ONLY: the baseline for the activation figure (bench/exthost/activation.test.ts). What
// VS Code spends activating it (loading a module, preparing its ExtensionContext, calling
// activate) is the least any extension costs in the same extension host.
'use strict';
exports.activate = () => ({ activationMs: 0, activationStartedAt: performance.now() });
exports.deactivate = () => {};
