// Helpers for qryn-fixture.sh (no dependencies besides Node itself). Every wait here is bounded.
//   node fixture_util.js free-port                              -> prints a free TCP port on 127.0.0.1
//   node fixture_util.js wait-shim PORT_FILE PID TIMEOUT_S      -> 0 once the shim answers /ping
//   node fixture_util.js wait-qryn URL CH_PORT DB PID TIMEOUT_S -> 0 once qryn serves ProfileTypes and
//                                                                  <DB>.profiles_input exists
//   (QRYN_LOGIN/QRYN_PASSWORD from env are sent as basic auth)
'use strict';
const net = require('net');
const http = require('http');
const fs = require('fs');

const sleep = (ms) => new Promise(r => setTimeout(r, ms));
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };

function request (url, { method = 'GET', body, headers = {}, timeoutMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers, timeout: timeoutMs }, (res) => {
      const c = []; res.on('data', d => c.push(d));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(c).toString() }));
      res.on('error', (e) => resolve({ status: 0, body: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(body);
  });
}

function freePort () {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const p = srv.address().port; srv.close(() => resolve(p)); });
  });
}

async function waitShim (portFile, pid, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  let last = 'no port file yet';
  while (Date.now() < deadline) {
    if (!alive(pid)) { console.error('shim process ' + pid + ' exited'); return 1; }
    if (fs.existsSync(portFile)) {
      const port = fs.readFileSync(portFile, 'utf8').trim();
      const r = await request(`http://127.0.0.1:${port}/?query=${encodeURIComponent('SELECT version()')}`);
      if (r.status === 200) { console.error('shim up on 127.0.0.1:' + port + ', ClickHouse ' + r.body.trim()); return 0; }
      last = r.status + ' ' + r.body.slice(0, 200);
    }
    await sleep(250);
  }
  console.error('timed out after ' + timeoutS + ' s waiting for the shim: ' + last);
  return 1;
}

async function waitQryn (url, chPort, db, pid, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  const headers = { 'Content-Type': 'application/proto' };
  if (process.env.QRYN_LOGIN) {
    headers.Authorization = 'Basic ' + Buffer.from(process.env.QRYN_LOGIN + ':' + (process.env.QRYN_PASSWORD || '')).toString('base64');
  }
  let last = 'not tried';
  while (Date.now() < deadline) {
    if (!alive(pid)) { console.error('qryn process ' + pid + ' exited'); return 1; }
    const r = await request(url + '/querier.v1.QuerierService/ProfileTypes', { method: 'POST', body: Buffer.alloc(0), headers });
    if (r.status === 200) {
      const t = await request(`http://127.0.0.1:${chPort}/?query=${encodeURIComponent(`EXISTS TABLE ${db}.profiles_input`)}`);
      if (t.status === 200 && t.body.trim() === '1') return 0;
      last = 'profiles_input: ' + t.status + ' ' + t.body.slice(0, 200);
    } else {
      last = 'ProfileTypes: ' + r.status + ' ' + r.body.slice(0, 200);
    }
    await sleep(500);
  }
  console.error('timed out after ' + timeoutS + ' s waiting for qryn at ' + url + ': ' + last);
  return 1;
}

(async () => {
  const [cmd, ...a] = process.argv.slice(2);
  let rc = 2;
  if (cmd === 'free-port') { console.log(await freePort()); rc = 0; } else if (cmd === 'wait-shim') rc = await waitShim(a[0], parseInt(a[1], 10), parseFloat(a[2]));
  else if (cmd === 'wait-qryn') rc = await waitQryn(a[0], a[1], a[2], parseInt(a[3], 10), parseFloat(a[4]));
  else console.error('usage: fixture_util.js free-port | wait-shim PORT_FILE PID TIMEOUT_S | wait-qryn URL CH_PORT DB PID TIMEOUT_S');
  process.exit(rc);
})().catch((e) => { console.error(e); process.exit(1); });
