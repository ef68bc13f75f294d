// @ts-check
// The options form: one row per option of the chosen protocol (a select for bool and a|b|c types, else a text
// field), each with its help, its defaults in both modes, a "changed" badge and a reset link. What the user
// changed is `state.set` (name -> string); options left at their default are not sent.

import { h } from './util.js';

/** @typedef {import('./api').OptionSpec} OptionSpec */

/**
 * @param {{state: {current: import('./api').ProtocolInfo | null, mode: import('./api').Mode, set: Record<string, string>},
 *          body: HTMLElement, summary: HTMLElement, modeRadios: Iterable<HTMLInputElement>, onChange: () => void}} ctx
 *   body: where the rows go; summary: the "n changed" text; onChange: the inputs of the next run changed
 */
export function optionsForm(ctx) {
  const { state, body, summary } = ctx;

  const updateSummary = () => {
    const n = Object.keys(state.set).length;
    summary.textContent = n ? `${n} changed` : `defaults (${state.mode})`;
    summary.classList.toggle('is-changed', n > 0);
  };
  const edited = () => {
    updateSummary();
    ctx.onChange();
  };

  /** @type {Array<{el: HTMLElement, sync: () => void}>} */
  let rows = [];

  /** Rebuilds the rows for `state.current`. */
  const build = () => {
    const opts = Array.isArray(state.current?.options) ? state.current.options : [];
    rows = opts.map((opt) => optionRow(state, opt, edited));
    body.replaceChildren(...(rows.length ? rows.map((r) => r.el) : [h('p', { class: 'muted' }, 'This protocol has no options.')]));
    updateSummary();
  };

  for (const radio of ctx.modeRadios) {
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      state.mode = /** @type {import('./api').Mode} */ (radio.value);
      for (const r of rows) r.sync();
      updateSummary();
    });
  }

  return { build };
}

/** An option's default in `mode`, as text ('' when it has none). @param {OptionSpec} opt @param {string} mode */
function defaultFor(opt, mode) {
  const v = mode === 'corrected' ? opt.default_corrected : opt.default_official;
  return v === null || v === undefined ? '' : String(v);
}

/**
 * One option's row: its control (a select for bool and a|b|c types, else a text field), help, defaults, "changed"
 * badge and reset link; `sync()` shows `state` again, `edited()` is called after the user changed the value.
 * @param {{mode: import('./api').Mode, set: Record<string, string>}} state @param {OptionSpec} opt
 * @param {() => void} edited
 */
function optionRow(state, opt, edited) {
  const id = `opt-${opt.name}`;
  const helpId = `${id}-help`;
  const choices = choicesOf(opt);
  const control = optionControl(opt, id, helpId, choices);
  const reset = h('button', { type: 'button', class: 'link-btn opt-reset', hidden: true, 'aria-label': `Reset ${opt.name} to its default` }, 'reset');
  const changedBadge = h('span', { class: 'badge badge-accent opt-changed', hidden: true }, 'changed');
  const el = h('div', { class: 'opt-row', dataset: { option: opt.name } },
    h('label', { for: id, class: 'opt-name' }, h('code', {}, opt.name), changedBadge),
    h('div', { class: 'opt-control' }, control, reset),
    h('p', { class: 'opt-help', id: helpId },
      opt.help ?? '',
      h('span', { class: 'opt-defaults' }, `Default: official ${defaultFor(opt, 'official') || '—'} · corrected ${defaultFor(opt, 'corrected') || '—'}`,
        opt.type && !choices ? ` · ${opt.type}` : null)));
  const sync = () => {
    const def = defaultFor(opt, state.mode);
    const value = opt.name in state.set ? state.set[opt.name] : def;
    if (choices) {
      const values = [...choices];
      if (!values.includes(def)) values.unshift(def);
      if (!values.includes(value)) values.unshift(value);
      control.replaceChildren(...values.map((v) => h('option', { value: v }, v === '' ? '(not used)' : v === def ? `${v} (default)` : v)));
    } else {
      /** @type {HTMLInputElement} */ (control).placeholder = def && def !== 'n/a' ? `default: ${def}` : `not used in ${state.mode} mode`;
    }
    control.value = !choices && value === 'n/a' ? '' : value;
    const changed = opt.name in state.set;
    changedBadge.hidden = !changed;
    reset.hidden = !changed;
    el.classList.toggle('is-changed', changed);
  };
  const changedByUser = () => {
    sync();
    edited();
  };
  control.addEventListener('change', () => {
    const v = choices ? control.value : control.value.trim();
    if (v === defaultFor(opt, state.mode) || (!choices && v === '')) delete state.set[opt.name];
    else state.set[opt.name] = v;
    changedByUser();
  });
  if (!choices) control.addEventListener('input', () => {
    const v = control.value.trim();
    el.classList.toggle('is-changed', v !== '' && v !== defaultFor(opt, state.mode));
  });
  reset.addEventListener('click', () => {
    delete state.set[opt.name];
    changedByUser();
    control.focus();
  });
  sync();
  return { el, sync };
}

/**
 * The option's input: a select when it has `choices`, else a text field (numeric keyboard for numbers).
 * @param {OptionSpec} opt @param {string} id @param {string} helpId @param {string[] | null} choices
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function optionControl(opt, id, helpId, choices) {
  const type = opt.type ?? '';
  return choices
    ? h('select', { id, name: opt.name, 'aria-describedby': helpId })
    : h('input', {
      id, name: opt.name, type: 'text', 'aria-describedby': helpId, autocomplete: 'off', spellcheck: 'false',
      inputmode: /int|number|float/.test(type) && !/list/.test(type) ? 'decimal' : null,
    });
}

/** The values of a bool or `a|b|c` option, else null (a text field). @param {OptionSpec} opt */
function choicesOf(opt) {
  const t = String(opt.type ?? '');
  if (t === 'bool' || t === 'boolean') return ['true', 'false'];
  if (/^[^\s|]+(\|[^\s|]+)+$/.test(t)) return t.split('|');
  return null;
}
