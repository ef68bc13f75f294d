// Protocol views in a report's details (after the plots, before the per-item table): the module
// www/views/<id>.js of each protocol whose descriptor says `view: true` (wasm protocols(), src/protocols/views.rs),
// imported only when a report of that protocol is shown. www/engine.js notes the list when it arrives.
//
// A view module exports `render(entry, ctx)`, which returns a Node, an array of Nodes, or a promise of either:
//   entry  { report, reportJson }               the shown report (www/API.md)
//   ctx    { engine, session, set, mode, table }  engine: www/engine.js; session: the run's files as the worker
//                                               holds them (www/engine.js Session: `session.view(name, args,
//                                               options)` resolves with what the protocol's view `name` answers,
//                                               src/protocols/views.rs; `session.score(options)` scores them again
//                                               without reading them again), set/mode: the options of this report
// It must not modify the report, and everything it draws comes from the report or from the engine.

/** @type {Record<string, () => Promise<any>>} the view modules' loaders, by protocol id */
export const VIEWS = {};

/** Notes which protocols have a view module. @param {{id: string, view?: boolean}[]} list */
export function noteViews(list) {
  for (const p of list) {
    if (p.view) VIEWS[p.id] = () => import(`./${p.id}.js`);
  }
}
