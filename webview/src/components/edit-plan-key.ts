/**
 * Ctrl+G (Cmd+G on macOS) in the chat while a plan waits for approval: Edit Plan (GATE-2), wherever
 * the keyboard focus is in the chat. The chat owns this key because VS Code sets no context key for
 * a focused webview view (`focusedView` stays unset while the webview has focus), so no `when`
 * clause can tell that the chat is in front of the user. The key is stopped before VS Code's
 * webview forwards it to the workbench, so Go to Line does not run as well; with no plan waiting it
 * passes through as usual. The plan file's editor has the same key through a keybinding
 * (package.json, `vtplan.planEditorFocused`).
 */
const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function isEditPlanKey(e: KeyboardEvent, mac = MAC): boolean {
  if (e.key.toLowerCase() !== 'g' || e.shiftKey || e.altKey) return false;
  return mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
}

/** Listens on the document in the capture phase, ahead of VS Code's forwarding listener on the window. */
export function listenForEditPlanKey(doc: Document, onEditPlan: () => void): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (!isEditPlanKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
    onEditPlan();
  };
  doc.addEventListener('keydown', onKey, true);
  return () => doc.removeEventListener('keydown', onKey, true);
}
