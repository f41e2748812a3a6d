/**
 * A small stand-in for the `entities` package inside the webview bundle (see
 * webview/build/markdown-it-slim.mjs): markdown-it only asks it to decode one named reference
 * such as `&copy;`. The full HTML table costs ~24 KB minified; model output uses a handful of
 * names, and an unknown name stays literal text, exactly as markdown-it shows unknown names.
 * Numeric references (`&#169;`) are decoded by markdown-it itself.
 */
export const NAMED: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad',
  copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±', times: '×', divide: '÷', middot: '·', sect: '§', para: '¶',
  micro: 'µ', frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
  bull: '•', dagger: '†', Dagger: '‡', prime: '′', Prime: '″', euro: '€', pound: '£', yen: '¥', cent: '¢',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒', hArr: '⇔',
  ne: '≠', le: '≤', ge: '≥', asymp: '≈', equiv: '≡', infin: '∞', minus: '−', sum: '∑', prod: '∏', radic: '√',
  forall: '∀', exist: '∃', isin: '∈', notin: '∉', and: '∧', or: '∨', cap: '∩', cup: '∪', sub: '⊂', sup: '⊃',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', tau: 'τ', phi: 'φ', omega: 'ω',
  Delta: 'Δ', Sigma: 'Σ', Omega: 'Ω', check: '✓', cross: '✗', star: '☆', starf: '★', hearts: '♥', zwj: '\u200d', zwnj: '\u200c',
};

/** Same contract as `entities`' decodeHTMLStrict for what markdown-it passes: `&name;` references. */
export function decodeHTMLStrict(text: string): string {
  return text.replace(/&([a-zA-Z][a-zA-Z0-9]*);/g, (match, name: string) => (Object.hasOwn(NAMED, name) ? (NAMED[name] ?? match) : match));
}
