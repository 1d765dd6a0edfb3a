// The demo page: plain JavaScript, no framework, no build step.
'use strict';

const api = (path) => new URL('api/' + path, document.baseURI).toString();
const $ = (id) => document.getElementById(id);

// One key per form fill. crypto.randomUUID needs a secure context (https or 127.0.0.1/localhost);
// on plain http from another host fall back to getRandomValues, which is available everywhere.
function newKey() {
  if (window.crypto && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function text(tag, value, cls) {
  const el = document.createElement(tag);
  el.textContent = value;
  if (cls) el.className = cls;
  return el;
}

// ---- 1. the order form -------------------------------------------------------------------------

const form = { key: null, used: false, clicks: 0, counts: { first: 0, replayed: 0, conflict: 0, other: 0 } };

function startFormFill() {
  form.key = newKey();
  form.used = false;
  form.clicks = 0;
  form.counts = { first: 0, replayed: 0, conflict: 0, other: 0 };
  $('idem-key').textContent = form.key;
  $('responses').querySelector('tbody').replaceChildren();
  $('order-summary').textContent = '';
}

function summarize() {
  const c = form.counts;
  $('order-summary').textContent =
    `${form.clicks} click(s): ${c.first} placed the order, ${c.replayed} replayed it, ` +
    `${c.conflict} got 409 (still running), ${c.other} other.`;
}

async function placeOrder(event) {
  event.preventDefault();
  const click = ++form.clicks;
  form.used = true;
  const row = document.createElement('tr');
  row.dataset.click = String(click);
  row.append(text('td', '#' + click), text('td', '…'), text('td', ''), text('td', 'sent'));
  $('responses').querySelector('tbody').append(row);
  const body = JSON.stringify({
    customer: $('customer').value,
    product: $('product').value,
    quantity: Number($('quantity').value),
  });
  let status = 0;
  let replayed = false;
  let meaning;
  try {
    const r = await fetch(api('orders'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': form.key },
      body,
    });
    status = r.status;
    replayed = r.headers.get('Idempotent-Replayed') === 'true';
    const payload = await r.json().catch(() => ({}));
    if (status === 201) {
      meaning = replayed
        ? `the same order #${payload.id}, replayed: nothing ran again`
        : `order #${payload.id} placed (total ${Number(payload.total).toFixed(2)})`;
      form.counts[replayed ? 'replayed' : 'first']++;
    } else if (status === 409) {
      const retry = r.headers.get('Retry-After');
      meaning = `the first click is still being processed${retry ? `; retry after ${retry}s` : ''}`;
      form.counts.conflict++;
    } else {
      meaning = payload.detail || payload.title || r.statusText;
      form.counts.other++;
    }
  } catch (e) {
    meaning = 'network error: ' + e.message;
    form.counts.other++;
  }
  row.dataset.status = String(status);
  row.dataset.replayed = String(replayed);
  const cells = row.children;
  cells[1].textContent = status ? String(status) : '—';
  cells[1].className = status === 201 ? 'status-201' : status === 409 ? 'status-409' : 'status-err';
  cells[2].replaceChildren(status === 201
    ? text('span', replayed ? 'replayed' : 'first', 'badge ' + (replayed ? 'replayed' : 'first'))
    : text('span', ''));
  cells[3].textContent = meaning;
  summarize();
  if (status === 201) loadOrders();
loadCounters();
setInterval(loadCounters, 2000);
}

// Editing the form after sending it is a new form fill: a different order needs a different key.
function formEdited() {
  if (form.used) startFormFill();
}

// ---- 1b. buy again with a one-time token ----------------------------------------------------------

const quick = { token: null, header: 'Idempotency-Token', clicks: 0 };

async function fetchToken() {
  const r = await fetch(api('idempotency/tokens'), { method: 'POST' });
  const issued = await r.json();
  quick.token = issued.token;
  quick.header = issued.header || quick.header;
  $('token').textContent = quick.token;
}

async function buyAgain() {
  const click = ++quick.clicks;
  const row = document.createElement('tr');
  row.dataset.click = String(click);
  row.append(text('td', '#' + click), text('td', '…'), text('td', 'sent'));
  $('token-responses').querySelector('tbody').append(row);
  const r = await fetch(api('quick-orders'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [quick.header]: quick.token },
    body: JSON.stringify({ customer: $('customer').value, product: 'BEANS', quantity: 1 }),
  });
  const payload = await r.json().catch(() => ({}));
  row.dataset.status = String(r.status);
  row.children[1].textContent = String(r.status);
  row.children[1].className = r.status === 201 ? 'status-201' : r.status === 409 ? 'status-409' : 'status-err';
  row.children[2].textContent = r.status === 201
    ? `order #${payload.id} placed; a new token was fetched`
    : r.status === 409 ? 'this token was already used: no second order' : (payload.detail || payload.title || '');
  if (r.status === 201) {
    await fetchToken();
    loadOrders();
loadCounters();
setInterval(loadCounters, 2000);
  }
}

// ---- 2. orders and the payment callback ----------------------------------------------------------

async function loadOrders() {
  const r = await fetch(api('orders'));
  const orders = await r.json();
  const tbody = $('orders').querySelector('tbody');
  const rows = await Promise.all(orders.map(async (o) => {
    const payments = await (await fetch(api('payments?orderId=' + o.id))).json();
    const tr = document.createElement('tr');
    tr.dataset.orderId = String(o.id);
    tr.dataset.status = o.status;
    tr.append(
      text('td', '#' + o.id), text('td', o.customer), text('td', o.product), text('td', String(o.quantity)),
      text('td', Number(o.total).toFixed(2)));
    const st = document.createElement('td');
    st.append(text('span', o.status, 'badge ' + (o.status === 'PAID' ? 'paid' : 'new')));
    tr.append(st, text('td', String(payments.length)));
    const action = document.createElement('td');
    if (o.status === 'NEW') {
      const pay = text('button', 'Pay', 'small pay');
      pay.type = 'button';
      pay.addEventListener('click', () => payOrder(o));
      action.append(pay);
    }
    tr.append(action);
    return tr;
  }));
  tbody.replaceChildren(...rows);
  const batches = await (await fetch(api('payments/payouts'))).json();
  $('payouts').replaceChildren(...(batches.length ? batches.slice(0, 5).map((b) => text('li',
    `batch #${b.id} on ${b.node} at ${new Date(b.startedAt).toLocaleTimeString()}: ` +
    `${b.payments} payment(s), ${Number(b.total).toFixed(2)}`)) : [text('li', 'no payout yet')]));
}

async function payOrder(order) {
  const tradeNo = 'T' + Date.now() + Math.floor(Math.random() * 1000);
  const callback = () => fetch(api('payments/callback'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      trade_no: tradeNo, out_trade_no: String(order.id),
      total_amount: Number(order.total).toFixed(2), trade_status: 'TRADE_SUCCESS',
    }),
  }).then(async (r) => `${r.status} ${await r.text()}`);
  const answers = await Promise.all([callback(), callback(), callback()]);
  const out = $('payment-result');
  out.hidden = false;
  out.textContent = `trade ${tradeNo}, three callbacks at once:\n` + answers.join('\n') +
    `\n${new Set(answers).size === 1 ? 'all three answers are identical' : 'answers differ'}`;
  loadOrders();
loadCounters();
setInterval(loadCounters, 2000);
}

// ---- 3. repayment messages ---------------------------------------------------------------------

async function openLoan() {
  const r = await fetch(api('loans'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
    body: JSON.stringify({ borrower: 'Grace Hopper', principal: 1000.00, lateFee: 50.00 }),
  });
  const loan = await r.json();
  $('loan-id').value = loan.id;
  $('serial-no').value = 'SN' + Date.now();
  show($('delivery-result'), `loan #${loan.id} opened: principal ${loan.principalDue}, late fee ${loan.lateFeeDue}`);
}

async function deliver(event) {
  event.preventDefault();
  const loanId = Number($('loan-id').value);
  const times = Number($('times').value);
  const r = await fetch(api(`loans/${loanId}/repayment-deliveries/${times}`), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      serialNo: $('serial-no').value, source: $('source').value, loanId, amount: Number($('amount').value),
    }),
  });
  const report = await r.json();
  if (!r.ok) {
    show($('delivery-result'), `${r.status}: ${report.detail || report.title || ''}`);
    return;
  }
  const loan = report.loan || {};
  show($('delivery-result'),
    `${report.deliveries} deliveries at once -> ${report.settlements} settlement(s) booked, ` +
    `${report.distinctOutcomes} distinct answer(s)\n` +
    `loan #${loan.id}: principal due ${loan.principalDue}, late fee due ${loan.lateFeeDue}` +
    `${loan.closed ? ' (closed)' : ''}\nanswer: ${report.outcomes[0]}`);
}

async function loadCounters() {
  let report;
  try {
    const r = await fetch(api('ops/counters'));
    if (!r.ok) return;
    report = await r.json();
  } catch (e) {
    return;
  }
  const body = $('counters').querySelector('tbody');
  body.replaceChildren();
  for (const o of report.operations) {
    const released = Object.values(o.releases).reduce((a, b) => a + b, 0);
    const tr = document.createElement('tr');
    for (const v of [o.operation, o.executions, o.replays, o.inProgress, o.mismatches, o.missingKeys, released]) {
      tr.appendChild(text('td', v));
    }
    body.appendChild(tr);
  }
  $('counters-store').textContent = 'store: ' + report.store
    + (report.memoryRecords === undefined ? '' : ` (${report.memoryRecords} records held)`);
}

function show(el, s) {
  el.hidden = false;
  el.textContent = s;
}

// ---- wiring --------------------------------------------------------------------------------------

$('order-form').addEventListener('submit', placeOrder);
$('new-order').addEventListener('click', startFormFill);
for (const id of ['customer', 'product', 'quantity']) $(id).addEventListener('input', formEdited);
$('refresh-orders').addEventListener('click', loadOrders);
$('buy-again').addEventListener('click', buyAgain);
$('open-loan').addEventListener('click', openLoan);
$('repayment-form').addEventListener('submit', deliver);
startFormFill();
fetchToken();
loadOrders();
loadCounters();
setInterval(loadCounters, 2000);
