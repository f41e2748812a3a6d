import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { EntryOf, PlanSynopsis } from '../../../src/protocol';
import { InlineCode } from './PlanCard';

/**
 * Steps the gate shows before "… and N more plan steps". With the summary clamped to two lines and
 * each step to two, the gate keeps its four choices and both links inside a 360 px chat area.
 */
const GATE_PREVIEW_STEPS = 3;

/** Steps the host's synopsis already left out (its overflow row, GATE-1: `… and N more plan steps`). */
function stepsBeyondSynopsis(overflow: string | null): number {
  const n = /\d+/.exec(overflow ?? '')?.[0];
  return n === undefined ? 0 : Number(n);
}

/**
 * The plan under review, compact (GATE-1, issue 13): its title heads a disclosure that folds the
 * summary and steps away; open, the summary and the first steps show clamped, with one control
 * that expands them in full ("… and N more plan steps", or "Show full text" when only the clamping
 * hides something). The whole plan is one click away through "Open plan file" below the choices.
 */
export function GateSynopsis({
  synopsis,
  gateId,
  folded = false,
}: {
  synopsis: PlanSynopsis;
  gateId: string;
  folded?: boolean;
}) {
  const [open, setOpen] = useState(!folded);
  // Folded when something more urgent takes the room (an invalid edit's reasons); the user may unfold it.
  useEffect(() => setOpen(!folded), [folded]);
  const [expanded, setExpanded] = useState(false);
  const [clamped, setClamped] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const shown = expanded ? synopsis.steps : synopsis.steps.slice(0, GATE_PREVIEW_STEPS);
  const more = synopsis.steps.length - shown.length + stepsBeyondSynopsis(synopsis.overflow);

  // Whether the clamps cut any text: only then does a plan whose steps all show need the control.
  useLayoutEffect(() => {
    const el = body.current;
    if (!el || expanded || !open) return;
    const measure = () =>
      setClamped([...el.querySelectorAll<HTMLElement>('.is-clamped')].some((c) => c.scrollHeight > c.clientHeight + 1));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [synopsis, expanded, open]);

  const bodyId = `${gateId}-synopsis`;
  return (
    <details
      class={`gate-synopsis${expanded ? ' is-expanded' : ''}`}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary class="gate-plan-title" aria-controls={bodyId}>
        {synopsis.title ?? 'Plan'}
      </summary>
      <div class="gate-synopsis-body" id={bodyId} ref={body}>
        {synopsis.summary !== '' && (
          <p class={`synopsis-summary${expanded ? '' : ' is-clamped'}`}>
            <InlineCode text={synopsis.summary} />
          </p>
        )}
        {shown.length > 0 && (
          <ol class="synopsis-steps">
            {shown.map((s) => (
              <li key={s.number} value={s.number}>
                <span class={`step-text${expanded ? '' : ' is-clamped'}`}>
                  <InlineCode text={s.text} />
                </span>
              </li>
            ))}
          </ol>
        )}
        {expanded && synopsis.overflow !== null && <p class="synopsis-overflow">{synopsis.overflow}</p>}
        {(expanded || more > 0 || clamped) && (
          <button
            type="button"
            class="gate-more"
            aria-expanded={expanded}
            aria-controls={bodyId}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? 'Show less' : more > 0 ? `… and ${more} more plan steps` : 'Show full text'}
          </button>
        )}
      </div>
    </details>
  );
}

/**
 * Reasons shown in the gate before "… and N more in Problems": the first says what to fix, and the
 * gate keeps its four choices in view; the rest are a click away in the toast's "Show Problems".
 */
const SHOWN_REASONS = 1;

/**
 * GATE-2, issue 13: a save of the plan file that did not validate, said inside the gate that stays
 * (next to its choices, not in a line below it that lands out of view). An alert, so a screen
 * reader hears it as it appears. The gate folds its synopsis meanwhile, so the reasons and the
 * four choices still fit the chat area.
 */
export function InvalidEditNote({ invalidEdit }: { invalidEdit: NonNullable<EntryOf<'approval'>['invalidEdit']> }) {
  const rest = invalidEdit.reasons.length - SHOWN_REASONS;
  return (
    <div class="gate-invalid-edit" role="alert">
      <p class="gate-invalid-lead">Your edit is not valid; the previous plan stays.</p>
      <ul class="gate-invalid-reasons">
        {invalidEdit.reasons.slice(0, SHOWN_REASONS).map((r, i) => (
          <li key={i} title={`${r.line !== undefined ? `line ${r.line}: ` : ''}${r.message}`}>
            <span class="is-clamped">
              {r.line !== undefined && <span class="reason-line">line {r.line}: </span>}
              <InlineCode text={r.message} />
            </span>
          </li>
        ))}
      </ul>
      {rest > 0 && <p class="gate-invalid-more">… and {rest} more in Problems</p>}
    </div>
  );
}
