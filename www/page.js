// @ts-check
// index.html: the whole-page app (protocol picker with #/p/<id> routing, examples).
import { MARKUP } from './markup.js';
import { mountApp } from './app.js';

const main = document.getElementById('main');
main.insertAdjacentHTML('beforeend', MARKUP);
mountApp(main, { page: true, stateEl: document.body });
