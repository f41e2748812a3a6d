import { useEffect, useRef, useState } from 'preact/hooks';
import { APPROVAL_CHOICE_LABEL, GATE_CHOICES, type GateChoice } from '../../../src/core/vocabulary';
import type { EntryOf } from '../../../src/protocol';
import { Button, Link, type ToolkitElement } from '../ui';
import { focusIsInView, useKeyActivationGuard } from './focus';
import { GateSynopsis, InvalidEditNote } from './GateSynopsis';
import type { InteractionProps } from './Wizard';

export function contextFigure(usage: number): string {
  const percent = Math.round(Math.min(1, Math.max(0, Number.isFinite(usage) ? usage : 0)) * 100);
  return `Fresh thread. Context: ${percent}% used.`;
}

/**
 * "Ready to code?" (GATE-1): the bounded synopsis and four choices, keys 1–4. While a required
 * interview is open no gate is offered (INT-2), so `suspended` renders a placeholder instead.
 * `focusRequest` counts the host's explicit requests to focus the gate (`focusGate`).
 */
export function ApprovalGate({
  entry,
  send,
  onDone,
  suspended,
  focusRequest,
}: { entry: EntryOf<'approval'>; suspended: boolean; focusRequest: number } & InteractionProps) {
  const [chosen, setChosen] = useState<GateChoice | null>(null);
  const first = useRef<ToolkitElement>(null);
  const pending = entry.state === 'pending' && !suspended;
  const keys = useKeyActivationGuard();
  // Requests made before this gate existed were for another gate (or none).
  const answeredRequest = useRef(focusRequest);

  // The transcript scrolls the gate into view; focusing must not scroll it away.
  useEffect(() => {
    // A gate that appears while the user works elsewhere (e.g. re-validated after a save in the
    // editor) waits for them: the status line and the live region say so, focus stays put.
    if (pending && focusIsInView()) first.current?.focus({ preventScroll: true });
  }, [pending]);
  useEffect(() => {
    // A re-offered gate (GATE-3) is asked for focus while the choice just made still disables it.
    if (focusRequest === answeredRequest.current || chosen !== null) return;
    answeredRequest.current = focusRequest;
    const target = first.current;
    if (!pending || !target) return;
    target.focus({ preventScroll: true });
    // The toolkit enables its inner button a frame after the host element: focus then.
    if (document.activeElement !== target) requestAnimationFrame(() => target.focus({ preventScroll: true }));
  }, [focusRequest, pending, chosen]);
  // A gate re-sent still pending (a failed handoff keeps the plan ready, GATE-3) can be answered again.
  useEffect(() => setChosen(null), [entry]);

  if (entry.state !== 'pending') {
    const outcome =
      entry.state === 'superseded'
        ? 'Superseded by a newer plan'
        : entry.choice
          ? APPROVAL_CHOICE_LABEL[entry.choice]
          : 'Resolved';
    return (
      <div class={`gate-summary gate-${entry.state}`} role="note" aria-label="Plan approval">
        <span class="gate-summary-title">{entry.synopsis.title ?? 'Plan'}</span>
        <span class="gate-summary-choice">{` — ${outcome}`}</span>
      </div>
    );
  }
  if (suspended) {
    return (
      <div class="gate-summary gate-waiting" role="note">
        Answer the open question first; the plan approval follows.
      </div>
    );
  }

  const pick = (choice: GateChoice) => {
    if (chosen !== null || !keys.allows()) return;
    setChosen(choice);
    send({ type: 'approve', planFile: entry.planFile, choice });
    onDone();
  };

  return (
    <section
      class="card gate"
      aria-labelledby={`${entry.id}-gate-title`}
      {...keys.handlers}
      onKeyDown={(e) => {
        if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
        // A held digit repeating into the gate was pressed before focus got here.
        const index = /^[1-4]$/.test(e.key) && !e.repeat ? Number(e.key) - 1 : -1;
        const choice = GATE_CHOICES[index];
        if (choice) {
          e.preventDefault();
          pick(choice);
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          const buttons = [...e.currentTarget.querySelectorAll<ToolkitElement>('.gate-choice')];
          const at = buttons.indexOf(document.activeElement as ToolkitElement);
          const target = buttons[Math.min(buttons.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)))];
          if (target) {
            e.preventDefault();
            target.focus();
          }
        }
      }}
    >
      <header class="card-head">
        <h3 class="card-title" id={`${entry.id}-gate-title`}>
          Ready to code?
        </h3>
      </header>
      {entry.invalidEdit && <InvalidEditNote invalidEdit={entry.invalidEdit} />}
      <GateSynopsis synopsis={entry.synopsis} gateId={entry.id} folded={Boolean(entry.invalidEdit)} />
      <div class="gate-choices" role="group" aria-label="Approve the plan">
        {GATE_CHOICES.map((choice, i) => (
          <Button
            key={choice}
            buttonRef={i === 0 ? first : undefined}
            appearance={i === 0 ? 'primary' : 'secondary'}
            class={`gate-choice gate-choice-${choice}`}
            ariaKeyShortcuts={String(i + 1)}
            ariaDisabled={chosen !== null}
            onClick={() => pick(choice)}
          >
            <span class="choice-key" aria-hidden="true">
              {i + 1}
            </span>
            <span class="choice-text">
              <span class="choice-label">{APPROVAL_CHOICE_LABEL[choice]}</span>
              {choice === 'fresh_context' && <span class="choice-detail">{contextFigure(entry.contextUsage)}</span>}
            </span>
          </Button>
        ))}
      </div>
      <div class="gate-links">
        <Link class="gate-edit" ariaKeyShortcuts="Control+G" onClick={() => send({ type: 'editPlan' })}>
          Edit plan (Ctrl+G)
        </Link>
        <Link class="gate-open" onClick={() => send({ type: 'openPlan' })}>
          Open plan file
        </Link>
      </div>
    </section>
  );
}
