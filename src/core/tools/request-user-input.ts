/**
 * `request_user_input` (INT-1): the model asks the user one to three multiple-choice questions.
 * The handler does not ask anyone: it validates the questions and returns an `interview`
 * outcome; the runloop emits `interview.requested`, waits for `interview.resolved` and answers
 * the call with the declared option labels (session/interview.ts); numbering and the recommended
 * marker are presentation only.
 */
import { z } from 'zod';
import { defineTool, type InterviewQuestion, type ToolResult } from './tool';

const option = z.strictObject({
  label: z.string().trim().min(1).max(120).describe('The answer as the user will pick it; returned to you unchanged.'),
  description: z.string().optional().describe('One line on what this choice implies.'),
  recommended: z.boolean().optional().describe('Mark the option you recommend (at most one per question).'),
});

const question = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, "_", "-" or "."')
    .optional()
    .describe('Stable id for the answer, e.g. "storage_backend"; default q1, q2, ….'),
  header: z.string().max(40).optional().describe('Short label shown above the question, e.g. "Storage".'),
  question: z.string().trim().min(1).describe('The question, one decision per question.'),
  options: z.array(option).min(2).max(6).describe('2-6 mutually exclusive choices.'),
  allow_note: z.boolean().optional().describe('Let the user add a free-form note to the chosen option. Default true.'),
});

const schema = z
  .strictObject({
    questions: z.array(question).min(1).max(3).describe('1-3 questions asked together.'),
  })
  .superRefine((a, ctx) => {
    const ids = new Set<string>();
    a.questions.forEach((q, qi) => {
      const id = q.id ?? `q${qi + 1}`;
      if (ids.has(id))
        ctx.addIssue({ code: 'custom', path: ['questions', qi, 'id'], message: `duplicate question id "${id}"` });
      ids.add(id);
      const labels = new Set<string>();
      q.options.forEach((o, oi) => {
        if (labels.has(o.label.toLowerCase())) {
          ctx.addIssue({
            code: 'custom',
            path: ['questions', qi, 'options', oi, 'label'],
            message: `duplicate option label "${o.label}"`,
          });
        }
        labels.add(o.label.toLowerCase());
      });
      if (q.options.filter((o) => o.recommended === true).length > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', qi, 'options'],
          message: 'at most one option may be recommended',
        });
      }
    });
  });

export const requestUserInputTool = defineTool({
  name: 'request_user_input',
  description: [
    'Ask the user to decide something only they can decide (a material ambiguity or an open decision that changes the plan), as 1-3 multiple-choice questions with 2-6 options each.',
    'Put the recommended option first and mark it recommended. Do not ask what the repository can answer; research first.',
    "The answer (the chosen option label, plus an optional note) arrives as this tool's result. The user may dismiss the questions; then continue with your best judgement.",
  ].join(' '),
  schema,
  mutates: false,
  async handler(args): Promise<ToolResult> {
    const questions: InterviewQuestion[] = args.questions.map((q, i) => {
      const out: InterviewQuestion = {
        id: q.id ?? `q${i + 1}`,
        question: q.question,
        options: q.options.map((o) => ({
          label: o.label,
          ...(o.description === undefined ? {} : { description: o.description }),
          ...(o.recommended === undefined ? {} : { recommended: o.recommended }),
        })),
        allowFreeform: q.allow_note ?? true,
      };
      if (q.header !== undefined) out.header = q.header;
      return out;
    });
    return {
      ok: true,
      content: "Waiting for the user to answer; the answer will be this tool's result.",
      summary: `asked the user ${questions.length === 1 ? 'a question' : `${questions.length} questions`}: ${questions[0]?.question ?? ''}`,
      outcome: { kind: 'interview', questions },
    };
  },
});
