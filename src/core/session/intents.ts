/**
 * Intent phrases typed while planning (MODE-6): exit (present the plan for approval), stay (keep
 * planning), cancel (abandon planning), or none (ordinary input for the planning agent).
 *
 * The rule, in order:
 * 1. `/implement` is exit and `/plan off` is cancel; any other slash command is none (the
 *    slash-command parser owns it).
 * 2. A stay phrase anywhere in the message wins over everything else ("no wait, stay in
 *    planning", "yes but stay in plan mode", "please revise the plan: …", "don't exit the
 *    planning workflow"). Stay is the safe reading: it never starts implementation and never
 *    discards a plan.
 * 3. Otherwise the message must be a short utterance made only of intent words and harmless
 *    fillers (please, it, the plan, now, thanks, …). One word outside that closed vocabulary makes
 *    it ordinary input, so "go through the auth module and …", "start by reading the config" or
 *    "yes, but use zod" are none: a long message that merely contains "go" or "yes" never exits.
 * 4. In such an utterance: a stay word (stay, revise, edit, wait, hold on) → stay; exit and cancel words together
 *    ("yes no") → none; a cancel word (no, cancel, abandon plan, never mind) → cancel; an exit word
 *    or imperative (implement, approve, accept, lgtm, ship it, yes, go, start, execute the plan,
 *    exit the planning workflow, start coding, switch to agent mode) → exit.
 * 5. Short confirmations (continue, ok, go ahead, sure, sounds good, proceed, begin, …) exit only
 *    right after the assistant asked to implement. Otherwise `continue`/`keep going` mean keep
 *    planning (FUSE-3: after a blocked turn `continue` stays in planning) → stay, and the rest → none.
 * 6. A question (the message ends with `?`) never exits or cancels: "implement?" or "ready to
 *    implement?" asks about the plan, it does not approve or discard it.
 */

export type Intent = 'exit' | 'stay' | 'cancel' | 'none';

export interface IntentContext {
  /** The assistant's last message asked whether to implement the plan. */
  afterImplementationPrompt: boolean;
}

type TokenClass = 'exit' | 'confirm' | 'keep_going' | 'cancel' | 'stay' | 'filler';

/** Stay phrases recognised anywhere in a message (word-bounded, after normalisation). */
const STAY_ANYWHERE = [
  'stay in planning',
  'stay in plan',
  'stay in the planning',
  'stay in the plan',
  'stay planning',
  'keep planning',
  'continue planning',
  'continue the planning',
  'back to planning',
  'revise the plan',
  'revise this plan',
  'revise plan',
  'edit the plan',
  'edit this plan',
  'edit plan',
  'change the plan',
  'update the plan',
  'keep in planning',
  'keep in plan',
  'dont implement',
  'do not implement',
  'dont exit',
  'do not exit',
  'not ready',
  'dont start',
  'not yet',
  'not now',
];

/**
 * The closed vocabulary of short intent utterances. Multi-word entries match before single words.
 * A phrase that is the sum of its words ("ship it" = ship + it, "abandon the plan") needs no entry.
 */
const VOCABULARY: ReadonlyArray<readonly [string, TokenClass]> = [
  // exit
  ['go for it', 'exit'],
  ['looks good to me', 'exit'],
  ['implement', 'exit'],
  ['implementing', 'exit'],
  ['implementation', 'exit'],
  ['approve', 'exit'],
  ['approved', 'exit'],
  ['lgtm', 'exit'],
  ['yes', 'exit'],
  ['y', 'exit'],
  ['yeah', 'exit'],
  ['yep', 'exit'],
  ['yup', 'exit'],
  ['go', 'exit'],
  ['start', 'exit'],
  ['ship', 'exit'],
  ['execute', 'exit'],
  ['accept', 'exit'],
  ['accepted', 'exit'],
  // imperative sentences that ask to implement or to leave the planning workflow
  ['exit the planning', 'exit'],
  ['exit planning', 'exit'],
  ['exit plan mode', 'exit'],
  ['switch to agent mode', 'exit'],
  ['ready to implement', 'exit'],
  ['proceed to implementation', 'exit'],
  ['proceed to implement', 'exit'],
  ['proceed to coding', 'exit'],
  ['proceed with coding', 'exit'],
  ['go ahead and code', 'exit'],
  ['start coding', 'exit'],
  ['begin coding', 'exit'],
  ['start building', 'exit'],
  // confirmations: exit only after the implementation prompt
  ['go ahead', 'confirm'],
  ['sounds good', 'confirm'],
  ['looks good', 'confirm'],
  ['do it', 'confirm'],
  ['make it so', 'confirm'],
  ['ok', 'confirm'],
  ['okay', 'confirm'],
  ['k', 'confirm'],
  ['sure', 'confirm'],
  ['proceed', 'confirm'],
  ['begin', 'confirm'],
  ['alright', 'confirm'],
  ['fine', 'confirm'],
  ['good', 'confirm'],
  ['great', 'confirm'],
  ['perfect', 'confirm'],
  ['cool', 'confirm'],
  ['nice', 'confirm'],
  // `continue` keeps planning unless the assistant just asked to implement (FUSE-3)
  ['keep going', 'keep_going'],
  ['go on', 'keep_going'],
  ['carry on', 'keep_going'],
  ['continue', 'keep_going'],
  // cancel
  ['abandon planning', 'cancel'],
  ['cancel planning', 'cancel'],
  ['stop planning', 'cancel'],
  ['never mind', 'cancel'],
  ['nevermind', 'cancel'],
  ['forget it', 'cancel'],
  ['no', 'cancel'],
  ['nope', 'cancel'],
  ['nah', 'cancel'],
  ['n', 'cancel'],
  ['cancel', 'cancel'],
  ['abandon', 'cancel'],
  ['abort', 'cancel'],
  // stay
  ['hold on', 'stay'],
  ['wait', 'stay'],
  ['stay', 'stay'],
  ['revise', 'stay'],
  ['edit', 'stay'],
  // fillers, including the wording of the gate's choices
  ['clear context', 'filler'],
  ['fresh context', 'filler'],
  ['switch to auto', 'filler'],
  ['in auto mode', 'filler'],
  ['in build mode', 'filler'],
  ['thank you', 'filler'],
  ['please', 'filler'],
  ['pls', 'filler'],
  ['plz', 'filler'],
  ['now', 'filler'],
  ['then', 'filler'],
  ['it', 'filler'],
  ['this', 'filler'],
  ['that', 'filler'],
  ['the', 'filler'],
  ['plan', 'filler'],
  ['proposed', 'filler'],
  ['workflow', 'filler'],
  ['mode', 'filler'],
  ['with', 'filler'],
  ['and', 'filler'],
  ['lets', 'filler'],
  ['thanks', 'filler'],
  ['thx', 'filler'],
  ['ty', 'filler'],
  ['right', 'filler'],
  ['away', 'filler'],
  ['just', 'filler'],
  ['all', 'filler'],
  ['so', 'filler'],
  ['i', 'filler'],
  ['we', 'filler'],
  ['can', 'filler'],
];

const PHRASES = VOCABULARY.map(([phrase, cls]) => ({ words: phrase.split(' '), cls })).sort(
  (a, b) => b.words.length - a.words.length,
);
const STAY_PHRASES = STAY_ANYWHERE.map((p) => p.split(' '));

/** Lower-case words; apostrophes vanish ("let's" → "lets", "don't" → "dont"), other punctuation separates. */
function words(message: string): string[] {
  return message
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
}

function startsWithAt(haystack: readonly string[], at: number, needle: readonly string[]): boolean {
  return needle.every((w, k) => haystack[at + k] === w);
}

function containsPhrase(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) if (startsWithAt(haystack, i, needle)) return true;
  return false;
}

/** Token classes of a closed-vocabulary utterance, or `null` when a word falls outside it. */
function classify(ws: readonly string[]): Set<TokenClass> | null {
  const classes = new Set<TokenClass>();
  let i = 0;
  while (i < ws.length) {
    const match = PHRASES.find((p) => startsWithAt(ws, i, p.words));
    if (!match) return null;
    classes.add(match.cls);
    i += match.words.length;
  }
  return classes;
}

export function classifyIntent(message: string, context: IntentContext = { afterImplementationPrompt: false }): Intent {
  const trimmed = message.trim();
  if (trimmed.startsWith('/')) {
    if (/^\/implement[.!]*$/i.test(trimmed)) return 'exit';
    return /^\/plan\s+off[.!]*$/i.test(trimmed) ? 'cancel' : 'none';
  }
  const ws = words(trimmed);
  if (ws.length === 0) return 'none';
  if (STAY_PHRASES.some((p) => containsPhrase(ws, p))) return 'stay';
  const intent = utteranceIntent(ws, context);
  const question = /\?[\s!.]*$/.test(trimmed.normalize('NFKC'));
  return question && (intent === 'exit' || intent === 'cancel') ? 'none' : intent;
}

function utteranceIntent(ws: readonly string[], context: IntentContext): Intent {
  const classes = classify(ws);
  if (classes === null) return 'none';
  if (classes.has('stay')) return 'stay';
  if (classes.has('exit') && classes.has('cancel')) return 'none';
  if (classes.has('cancel')) return 'cancel';
  if (classes.has('exit')) return 'exit';
  if (classes.has('confirm') || classes.has('keep_going')) {
    if (context.afterImplementationPrompt) return 'exit';
    return classes.has('keep_going') ? 'stay' : 'none';
  }
  return 'none';
}
