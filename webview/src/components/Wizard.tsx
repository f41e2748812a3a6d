import { useEffect, useRef, useState } from 'preact/hooks';
import type { EntryOf, InterviewAnswer, InterviewQuestion, WebviewCommand } from '../../../src/protocol';
import { Button } from '../ui';
import { focusIsInView, useKeyActivationGuard } from './focus';

export interface InteractionProps {
  send: (command: WebviewCommand) => boolean;
  /** Called once the user has answered or dismissed, so focus can return to the composer. */
  onDone: () => void;
}

function initialChoice(q: InterviewQuestion): number {
  const recommended = q.options.findIndex((o) => o.recommended === true);
  return recommended !== -1 ? recommended : q.options.length > 0 ? 0 : -1;
}

/**
 * The clarification wizard (INT-1, INT-2): one question at a time, options as a listbox
 * (arrows, 1–9, Enter), an optional note, Esc dismisses without an answer. Numbering and the
 * "(Recommended)" marker are presentation only: the answer carries the declared label exactly.
 */
export function Wizard({ entry, send, onDone }: { entry: EntryOf<'interview'> } & InteractionProps) {
  const questions = entry.questions;
  const [step, setStep] = useState(0);
  const [choices, setChoices] = useState(() => questions.map(initialChoice));
  const [notes, setNotes] = useState(() => questions.map(() => ''));
  const [done, setDone] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  const keys = useKeyActivationGuard();

  useEffect(() => {
    // A question that appears while the user works elsewhere (a build command to confirm while
    // they edit) waits for them: the host announces it, focus stays where the user is. The
    // transcript scrolls the question into view; focusing must not scroll it away.
    if (focusIsInView()) (list.current ?? note.current)?.focus({ preventScroll: true });
  }, [step]);
  // The host re-sending the entry still pending means the answer did not land: allow another try.
  useEffect(() => setDone(false), [entry]);

  const question = questions[step];
  if (!question) return null;
  const choice = choices[step] ?? -1;
  const noteText = notes[step] ?? '';
  const canContinue = !done && (choice !== -1 || noteText.trim() !== '');
  const last = step === questions.length - 1;
  const idBase = `${entry.id}-q${step}`;

  const choose = (index: number) => {
    if (index < 0 || index >= question.options.length) return;
    setChoices(choices.map((c, i) => (i === step ? index : c)));
  };
  const finish = (command: WebviewCommand) => {
    setDone(true);
    send(command);
    onDone();
  };
  const next = () => {
    if (!canContinue || !keys.allows()) return;
    if (!last) {
      setStep(step + 1);
      return;
    }
    const answers = questions.map((q, i): InterviewAnswer => {
      const answer: InterviewAnswer = { questionId: q.id };
      const label = q.options[choices[i] ?? -1]?.label;
      if (label !== undefined) answer.label = label;
      const text = (notes[i] ?? '').trim();
      if (q.allowFreeform && text !== '') answer.note = text;
      return answer;
    });
    finish({ type: 'answerInterview', interviewId: entry.interviewId, answers });
  };
  const cancel = () => {
    if (!done && keys.allows()) finish({ type: 'cancelInterview', interviewId: entry.interviewId });
  };

  const onListKey = (e: KeyboardEvent) => {
    const count = question.options.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const from = choice === -1 ? (e.key === 'ArrowDown' ? -1 : count) : choice;
      choose(Math.min(count - 1, Math.max(0, from + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      choose(e.key === 'Home' ? 0 : count - 1);
    } else if (/^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      choose(Number(e.key) - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      // A held Enter repeating into the question was pressed before focus got here.
      if (!e.repeat) next();
    }
  };

  return (
    <section
      class={`card wizard wizard-${entry.source}`}
      aria-labelledby={`${idBase}-title`}
      {...keys.handlers}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.repeat) {
          e.preventDefault();
          cancel();
        }
      }}
    >
      <header class="card-head">
        <span class="wizard-kicker">{entry.source === 'runtime' ? 'Planning needs your input' : 'Question'}</span>
        {questions.length > 1 && <span class="wizard-progress">{`${step + 1} of ${questions.length}`}</span>}
      </header>
      {question.header !== undefined && question.header !== '' && <div class="wizard-header">{question.header}</div>}
      <h3 class="card-title wizard-question" id={`${idBase}-title`}>
        {question.question}
      </h3>
      {question.options.length > 0 && (
        <ul
          ref={list}
          class="wizard-options"
          role="listbox"
          tabIndex={0}
          aria-labelledby={`${idBase}-title`}
          aria-activedescendant={choice === -1 ? undefined : `${idBase}-o${choice}`}
          onKeyDown={onListKey}
        >
          {question.options.map((o, i) => (
            <li
              key={`${step}-${i}`}
              id={`${idBase}-o${i}`}
              role="option"
              aria-selected={i === choice}
              class={`wizard-option${i === choice ? ' is-selected' : ''}`}
              onClick={() => {
                choose(i);
                list.current?.focus();
              }}
            >
              <span class="option-number" aria-hidden="true">
                {i + 1}.
              </span>
              <span class="option-text">
                <span class="option-title">
                  <span class="option-label">{o.label}</span>
                  {o.recommended === true && <span class="option-recommended"> (Recommended)</span>}
                </span>
                {o.description !== undefined && o.description !== '' && (
                  <span class="option-description">{o.description}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {question.allowFreeform && (
        <label class="wizard-note">
          <span>{question.options.length > 0 ? 'Note (optional)' : 'Your answer'}</span>
          <textarea
            ref={note}
            rows={2}
            value={noteText}
            onInput={(e) => {
              const value = (e.currentTarget as HTMLTextAreaElement).value;
              setNotes(notes.map((n, i) => (i === step ? value : n)));
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                if (!e.repeat) next();
              }
            }}
          />
        </label>
      )}
      <div class="card-actions">
        <Button onClick={next} disabled={!canContinue} class="wizard-submit">
          {last ? 'Submit' : 'Next'}
        </Button>
        {step > 0 && (
          <Button
            appearance="secondary"
            onClick={() => {
              if (keys.allows()) setStep(step - 1);
            }}
            disabled={done}
          >
            Back
          </Button>
        )}
        <Button appearance="secondary" onClick={cancel} disabled={done} ariaKeyShortcuts="Escape" class="wizard-cancel">
          Cancel (Esc)
        </Button>
      </div>
      <p class="card-hint">↑/↓ or 1–9 to choose, Enter to {last ? 'submit' : 'continue'}, Esc to dismiss.</p>
    </section>
  );
}

/** An answered or dismissed interview, compact. */
export function InterviewSummary({ entry }: { entry: EntryOf<'interview'> }) {
  if (entry.state === 'cancelled') {
    return (
      <div class="interview-summary is-cancelled" role="note">
        Question dismissed without an answer.
      </div>
    );
  }
  return (
    <div class="interview-summary" role="note" aria-label="Your answers">
      {entry.questions.map((q) => {
        const a = entry.answers.find((x) => x.questionId === q.id);
        return (
          <div key={q.id} class="interview-answer">
            <span class="interview-q">{q.question}</span>
            <span class="interview-a">
              {' → '}
              {a?.label ?? (a?.note !== undefined ? '' : 'no answer')}
              {a?.note !== undefined && (
                <span class="interview-note">{a.label !== undefined ? ` — ${a.note}` : a.note}</span>
              )}
            </span>
          </div>
        );
      })}
    </div>
  );
}
