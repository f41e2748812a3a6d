/** Interviews (INT-1 … INT-3, SYN-3): questions the model or the runtime asks the user. */
interface InterviewOptionInput {
  label: string;
  description?: string;
  recommended?: boolean;
}

export interface InterviewQuestionInput {
  id: string;
  header?: string;
  question: string;
  options: InterviewOptionInput[];
  allowFreeform: boolean;
}

export interface InterviewAnswerInput {
  questionId: string;
  label?: string;
  note?: string;
}

/** SYN-3: offered when synthesis recovery is exhausted; answered without a model call. */
export const RECOVERY_CHOICES = ['Retry from retained evidence', 'Add clarification', 'Choose another model'] as const;

export function recoveryInterview(): InterviewQuestionInput[] {
  return [
    {
      id: 'recovery',
      header: 'Planning stalled',
      question:
        'The planner could not produce a valid plan within its recovery allowance. How do you want to continue?',
      options: [
        {
          label: RECOVERY_CHOICES[0],
          description: 'Ask the model once more to write the plan from what it already found.',
          recommended: true,
        },
        { label: RECOVERY_CHOICES[1], description: 'Type more context, then planning continues with it.' },
        { label: RECOVERY_CHOICES[2], description: 'Switch the model, then retry.' },
      ],
      allowFreeform: true,
    },
  ];
}

/** The tool result the model receives for an answered interview: the declared labels verbatim. */
export function answerText(
  questions: readonly InterviewQuestionInput[],
  answers: readonly InterviewAnswerInput[],
): string {
  const lines = answers.map((a) => {
    const q = questions.find((x) => x.id === a.questionId);
    const head = q ? q.question : a.questionId;
    const parts = [a.label !== undefined ? `selected "${a.label}"` : 'no option selected'];
    if (a.note) parts.push(`note: ${a.note}`);
    return `- ${head}: ${parts.join('; ')}`;
  });
  return `The user answered:\n${lines.join('\n')}`;
}
