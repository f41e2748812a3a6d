import type { EntryOf, PlanSynopsis } from '../../../src/protocol';
import { Spinner } from '../ui';
import { Markdown } from './Markdown';

const STATUS_LABEL = {
  streaming: 'Drafting plan…',
  persisted: 'Plan ready',
  rejected: 'Plan rejected',
  approved: 'Plan approved',
} as const;

/** Plain text with `inline code` spans, as plan summaries and steps are written; no other markup. */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return <>{parts.map((p, i) => (p.length > 2 && p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : p))}</>;
}

/** Summary, numbered steps with full text, and the overflow row (GATE-1); shared with the gate. */
export function SynopsisView({ synopsis }: { synopsis: PlanSynopsis }) {
  return (
    <>
      {synopsis.summary !== '' && <p class="synopsis-summary"><InlineCode text={synopsis.summary} /></p>}
      {synopsis.steps.length > 0 && (
        <ol class="synopsis-steps">
          {synopsis.steps.map((s) => (
            <li key={s.number} value={s.number}><InlineCode text={s.text} /></li>
          ))}
        </ol>
      )}
      {synopsis.overflow !== null && <p class="synopsis-overflow">{synopsis.overflow}</p>}
    </>
  );
}

export function PlanCard({ entry, underReview = false }: { entry: EntryOf<'plan'>; underReview?: boolean }) {
  const title = entry.synopsis?.title ?? 'Plan';
  if (underReview) {
    return (
      <section class="card plan-card plan-persisted plan-under-review" aria-label={`Plan ready: ${title}`}>
        <header class="card-head">
          <span class="plan-status">Plan ready</span>
          <h3 class="card-title">{title}</h3>
        </header>
        {entry.planFile !== null && <div class="plan-file">{entry.planFile}</div>}
        <details class="plan-draft">
          <summary>Full plan (summarised in Ready to code? below)</summary>
          <Markdown html={entry.html} class="plan-markdown" />
        </details>
      </section>
    );
  }
  return (
    <section class={`card plan-card plan-${entry.status}`} aria-label={`${STATUS_LABEL[entry.status]}: ${title}`}>
      <header class="card-head">
        {entry.status === 'streaming' && <Spinner label="drafting" />}
        <span class="plan-status">{STATUS_LABEL[entry.status]}</span>
        <h3 class="card-title">{title}</h3>
      </header>
      {entry.planFile !== null && <div class="plan-file">{entry.planFile}</div>}
      {entry.synopsis !== null && entry.status !== 'rejected' ? (
        <SynopsisView synopsis={entry.synopsis} />
      ) : (
        entry.status !== 'rejected' && <Markdown html={entry.html} class="plan-markdown" />
      )}
      {entry.status === 'rejected' && (
        <>
          <p class="plan-rejected-lead">The validator rejected this draft:</p>
          <ul class="plan-reasons">
            {entry.reasons.map((r, i) => (
              <li key={i}>
                {r.line !== undefined && <span class="reason-line">line {r.line}: </span>}
                {r.message} <code class="reason-code">{r.code}</code>
              </li>
            ))}
          </ul>
          {entry.markdown !== '' && (
            <details class="plan-draft">
              <summary>Rejected draft</summary>
              <Markdown html={entry.html} class="plan-markdown" />
            </details>
          )}
        </>
      )}
    </section>
  );
}
