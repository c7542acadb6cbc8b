// Minimal ClickHouse HTTP interface over chdb (embedded ClickHouse), loopback only.
// Adapted from the team's research harness (shared/qryn/harness/ch_http_shim.js, see shared/qryn/qryn.md §9.2).
// Changes for the test fixture: port 0 support (the bound port is written to SHIM_PORT_FILE), GET /ping and an
// empty query answer "Ok.", a low max_threads so that it stays light on a shared CI machine.
//
// env: SHIM_PORT (default 8124; 0 = any free port), SHIM_PORT_FILE, SHIM_DATA (chdb data dir), SHIM_LOG=1,
//      SHIM_MAX_THREADS (default 2). `chdb` must be resolvable (NODE_PATH=<install>/node_modules).
'use strict';
const http = require('http');
const fs = require('fs');
const { Session } = require('chdb');

const PORT = parseInt(process.env.SHIM_PORT || '8124', 10);
const DATA = process.env.SHIM_DATA || require('os').tmpdir() + '/chdb-shim-data';
const s = new Session(DATA, {
  connectionArgs: [
    '--output_format_json_quote_64bit_integers=1', // qryn expects quoted 64-bit integers in JSON (as older servers did)
    '--max_threads=' + (process.env.SHIM_MAX_THREADS || '2')
  ]
});
let chain = Promise.resolve();
const serial = (fn) => { const p = chain.then(fn, fn); chain = p.catch(() => {}); return p; };
let curDb = null;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', c => chunks.push(c));
  req.on('error', () => {});
  req.on('end', async () => {
    const u = new URL(req.url, 'http://127.0.0.1');
    const body = Buffer.concat(chunks).toString('utf8');
    let q = u.searchParams.get('query');
    q = q ? (body.length ? q + '\n' + body : q) : body;
    if (u.pathname === '/ping' || !q.trim()) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' });
      res.end('Ok.\n');
      return;
    }
    const db = u.searchParams.get('database');
    if (process.env.SHIM_LOG) console.log('Q[' + (db || '') + ']: ' + q.slice(0, 400).replace(/\s+/g, ' '));
    try {
      const out = await serial(async () => {
        if (db && db !== curDb) {
          try { await s.queryAsync('USE `' + db + '`', { format: 'TabSeparated' }); curDb = db; } catch (e) {}
        }
        const r = await s.queryAsync(q, { format: 'TabSeparated' });
        return Buffer.from(r.bytes());
      });
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Server-Display-Name': 'chdb-shim' });
      res.end(out);
    } catch (e) {
      const msg = (e && e.message) || String(e);
      console.log('ERR: ' + msg.slice(0, 500) + '\n   for: ' + q.slice(0, 300).replace(/\s+/g, ' '));
      res.writeHead(e && e.clickhouseCode === 62 ? 400 : 500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(e && e.clickhouseCode) });
      res.end(msg + '\n');
    }
  });
});

server.on('error', (e) => { console.error('shim: listen error: ' + e.message); process.exit(1); });
server.listen(PORT, '127.0.0.1', () => {
  const port = server.address().port;
  if (process.env.SHIM_PORT_FILE) {
    fs.writeFileSync(process.env.SHIM_PORT_FILE + '.tmp', String(port));
    fs.renameSync(process.env.SHIM_PORT_FILE + '.tmp', process.env.SHIM_PORT_FILE);
  }
  console.log('shim listening 127.0.0.1:' + port + ' (chdb data ' + DATA + ')');
});
const stop = () => { server.close(); try { s.close(); } catch (e) {} process.exit(0); };
process.on('SIGTERM', stop); process.on('SIGINT', stop);
