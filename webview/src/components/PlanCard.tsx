import type { EntryOf, PlanChanges, PlanRevisionInfo, PlanSynopsis, WebviewCommand } from '../../../src/protocol';
import { Link, Spinner } from '../ui';
import { Markdown, StreamingMarkdown } from './Markdown';

const STATUS_LABEL = {
  streaming: 'Drafting plan…',
  persisted: 'Plan ready',
  rejected: 'Plan rejected',
  approved: 'Plan approved',
} as const;

/** Plain text with `inline code` spans, as plan summaries and steps are written; no other markup. */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) =>
        p.length > 2 && p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : p,
      )}
    </>
  );
}

/** Summary, numbered steps with full text, and the overflow row (GATE-1); shared with the gate. */
function SynopsisView({ synopsis }: { synopsis: PlanSynopsis }) {
  return (
    <>
      {synopsis.summary !== '' && (
        <p class="synopsis-summary">
          <InlineCode text={synopsis.summary} />
        </p>
      )}
      {synopsis.steps.length > 0 && (
        <ol class="synopsis-steps">
          {synopsis.steps.map((s) => (
            <li key={s.number} value={s.number}>
              <InlineCode text={s.text} />
            </li>
          ))}
        </ol>
      )}
      {synopsis.overflow !== null && <p class="synopsis-overflow">{synopsis.overflow}</p>}
    </>
  );
}

const FIELD_LABEL: Record<PlanChanges['changed'][number]['fields'][number], string> = {
  action: 'wording',
  files: 'files',
  targets: 'targets',
  verify: 'verify',
  outcome: 'outcome',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "1 added · 2 changed": what the collapsed "What changed" says before it is opened. */
function changeCounts(changes: PlanChanges): string {
  const parts = [
    changes.added.length > 0 ? `${changes.added.length} added` : '',
    changes.changed.length > 0 ? `${changes.changed.length} changed` : '',
    changes.removed.length > 0 ? `${changes.removed.length} removed` : '',
  ].filter((p) => p !== '');
  if (parts.length > 0)
    return `${plural(changes.added.length + changes.changed.length + changes.removed.length, 'step')}: ${parts.join(' · ')}`;
  return changes.sections.length > 0 ? 'steps unchanged' : 'no changes';
}

/** Steps added, changed and removed since the previous revision (GATE-2), collapsed until asked for. */
function WhatChanged({ changes }: { changes: PlanChanges }) {
  const nothing =
    changes.added.length + changes.changed.length + changes.removed.length + changes.sections.length === 0;
  return (
    <details class="plan-changes">
      <summary>
        What changed <span class="plan-changes-counts">({changeCounts(changes)})</span>
      </summary>
      <ul class="plan-changes-list">
        {changes.added.map((s) => (
          <li key={`a${s.number}`} class="change change-added">
            <span class="change-kind">Added</span> step {s.number}: <InlineCode text={s.text} />
          </li>
        ))}
        {changes.changed.map((c) => (
          <li key={`c${c.after.number}`} class="change change-changed">
            <span class="change-kind">Changed</span> step {c.after.number}
            {c.before.number !== c.after.number && ` (was ${c.before.number})`}: <InlineCode text={c.after.text} />
            {c.fields.length > 0 && (
              <span class="change-fields"> — {c.fields.map((f) => FIELD_LABEL[f]).join(', ')}</span>
            )}
            {c.fields.includes('action') && (
              <div class="change-before">
                was: <InlineCode text={c.before.text} />
              </div>
            )}
          </li>
        ))}
        {changes.removed.map((s) => (
          <li key={`r${s.number}`} class="change change-removed">
            <span class="change-kind">Removed</span> step {s.number}: <InlineCode text={s.text} />
          </li>
        ))}
        {changes.sections.length > 0 && (
          <li class="change change-sections">
            <span class="change-kind">Also edited</span> {changes.sections.join(', ')}
          </li>
        )}
        {nothing && <li class="change">Nothing but whitespace.</li>}
      </ul>
    </details>
  );
}

/**
 * Which revision the card shows, once there is more than one (GATE-2: a saved edit updates the
 * card in place), with the way to the diff editor and what changed.
 */
function RevisionInfo({
  revision,
  planFile,
  send,
}: {
  revision: PlanRevisionInfo;
  planFile: string | null;
  send?: ((command: WebviewCommand) => boolean) | undefined;
}) {
  if (revision.number < 2) return null;
  return (
    <div class="plan-revision-block">
      <div class="plan-revision">
        <span class="plan-revision-label">
          Revision {revision.number} ·{' '}
          {revision.source === 'editor' ? 'edited in the editor' : 'revised by the planner'}
        </span>
        {send && planFile !== null && (
          <Link class="plan-compare" onClick={() => send({ type: 'comparePlan', planFile })}>
            Compare with previous
          </Link>
        )}
      </div>
      {revision.changes !== null && <WhatChanged changes={revision.changes} />}
    </div>
  );
}

export function PlanCard({
  entry,
  underReview = false,
  send,
}: {
  entry: EntryOf<'plan'>;
  underReview?: boolean;
  send?: (command: WebviewCommand) => boolean;
}) {
  const title = entry.synopsis?.title ?? 'Plan';
  const revision =
    entry.revision && entry.status !== 'streaming' && entry.status !== 'rejected' ? (
      <RevisionInfo revision={entry.revision} planFile={entry.planFile} send={send} />
    ) : null;
  if (underReview) {
    return (
      <section class="card plan-card plan-persisted plan-under-review" aria-label={`Plan ready: ${title}`}>
        <header class="card-head">
          <span class="plan-status">Plan ready</span>
          <h3 class="card-title">{title}</h3>
        </header>
        {entry.planFile !== null && <div class="plan-file">{entry.planFile}</div>}
        {revision}
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
      {revision}
      {entry.synopsis !== null && entry.status !== 'rejected' ? (
        <SynopsisView synopsis={entry.synopsis} />
      ) : (
        entry.status !== 'rejected' &&
        (entry.htmlChunks ? (
          <StreamingMarkdown chunks={entry.htmlChunks} class="plan-markdown" />
        ) : (
          <Markdown html={entry.html} class="plan-markdown" />
        ))
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
