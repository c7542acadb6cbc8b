// Loads one pprof (gzip or raw) into <db>.profiles_input the way qryn's profile ingesters store it
// (qryn-otel-collector pyroscopereceiver + clickhouseprofileexporter for qryn 3.x, or the qryn 4.x writer's
// /ingest): one row per pprof with the raw payload, values_agg, the call tree and the function table,
// cityHash64 computed by ClickHouse itself. qryn 3.2.39 has no ingest endpoint (shared/qryn/qryn.md §6).
// Adapted from the team's research harness (shared/qryn/harness/ingest_profiles_input.js); changes: a request
// timeout, and the summary line also carries from/until/tags.
//
// usage: node ingest_profiles_input.js <file.pb[.gz]> <service_name> <from_unix_s> <until_unix_s> [k=v,k=v]
//        node ingest_profiles_input.js --batch <list.tsv>
// env:   QRYN_DIR (installed qryn package, for its profile_pb.js), CH_PORT (8124), CH_DB (qryn)
// The profile's timestamp is <from_unix_s> (qryn stores the start of the collection window).
// --batch: one profile per line of the list, its five fields tab-separated as the arguments above; the rows go in
// by INSERTs of up to 50 rows, and the hashes are asked once for names and paths the profiles share (120 small
// profiles: about 2 s instead of 120 node starts of 0.3-0.5 s each). One summary line per profile, as for one.
'use strict';
const fs = require('fs'); const zlib = require('zlib'); const http = require('http');
const pb = require(require('path').resolve(process.env.QRYN_DIR || 'node_modules/qryn') + '/pyroscope/profile_pb.js');
const CH = { host: '127.0.0.1', port: parseInt(process.env.CH_PORT || '8124') };
const DB = process.env.CH_DB || 'qryn';
const chq = (sql) => new Promise((resolve, reject) => {
  const req = http.request({ ...CH, method: 'POST', path: '/', timeout: 120000 }, (res) => {
    const c = []; res.on('data', d => c.push(d)); res.on('end', () => {
      const t = Buffer.concat(c).toString(); res.statusCode === 200 ? resolve(t) : reject(new Error(res.statusCode + ' ' + t)) })
  }); req.on('timeout', () => req.destroy(new Error('ClickHouse shim request timed out'))); req.on('error', reject); req.end(sql)
});
const hexOf = (buf) => Buffer.from(buf).toString('hex');
const le64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt.asUintN(64, v)); return b };
const hashCache = new Map(); // hex -> hash, shared by the profiles of a batch
async function cityHashes (hexes) { // hex strings -> BigInt cityHash64 (ClickHouse's CityHash64 v1.0.2)
  const res = new Map(); const uniq = [...new Set(hexes)].filter(h => !hashCache.has(h));
  for (let i = 0; i < uniq.length; i += 2000) {
    const part = uniq.slice(i, i + 2000);
    const out = await chq(`SELECT x, cityHash64(unhex(x)) FROM (SELECT arrayJoin([${part.map(h => `'${h}'`).join(',')}]) AS x) FORMAT TSV`);
    for (const line of out.trim().split('\n')) { const [x, h] = line.split('\t'); hashCache.set(x, BigInt(h)) }
  }
  for (const h of hexes) res.set(h, hashCache.get(h));
  return res;
}
const sq = (s) => "'" + String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
// The row of one profile for INSERT ... VALUES, and its summary.
async function profileRow (file, service, fromS, untilS, tagStr) {
  if (!file || !service || !/^\d+$/.test(fromS || '') || !/^\d+$/.test(untilS || '')) throw new Error('usage: ingest_profiles_input.js <file> <service> <from_unix_s> <until_unix_s> [k=v,...]');
  let raw = fs.readFileSync(file); if (raw[0] === 0x1f && raw[1] === 0x8b) raw = zlib.gunzipSync(raw);
  const p = pb.Profile.deserializeBinary(raw); const st = p.getStringTableList();
  const sampleTypes = p.getSampleTypeList().map(t => [st[t.getType()], st[t.getUnit()]]);
  const pt = p.getPeriodType(); const periodType = pt ? st[pt.getType()] : ''; const periodUnit = pt ? st[pt.getUnit()] : '';
  const typeMap = { cpu: 'process_cpu', wall: 'wall', mutex: 'mutex', contentions: 'mutex', goroutine: 'goroutines', objects: 'memory', space: 'memory', alloc: 'memory', inuse: 'memory', block: 'block' };
  const type = typeMap[periodType] || periodType;
  const fnName = new Map(p.getFunctionList().map(f => [f.getId(), st[f.getName()]]));
  const locName = new Map(p.getLocationList().map(l => [l.getId(), l.getLineList().length ? (fnName.get(l.getLineList()[0].getFunctionId()) || 'n/a') : 'n/a']));
  const samples = p.getSampleList().map(s => ({ names: s.getLocationIdList().map(id => locName.get(id)).reverse(), values: s.getValueList().map(Number) }));
  const fnHash = await cityHashes([...new Set(samples.flatMap(s => s.names))].map(n => hexOf(Buffer.from(n, 'utf8'))));
  const fid = (n) => fnHash.get(hexOf(Buffer.from(n, 'utf8')));
  const tree = new Map(); const parents = samples.map(() => 0n);
  const maxDepth = Math.max(0, ...samples.map(s => s.names.length));
  for (let d = 1; d <= maxDepth; d++) {
    const keys = samples.map((s, i) => s.names.length >= d ? hexOf(Buffer.concat([le64(parents[i]), le64(fid(s.names[d - 1]))])) : null);
    const hs = await cityHashes(keys.filter(k => k));
    samples.forEach((s, i) => {
      if (!keys[i]) return;
      const nodeId = BigInt.asUintN(64, (hs.get(keys[i]) >> 9n) | (BigInt(Math.min(d, 511)) << 55n));
      let node = tree.get(nodeId);
      if (!node) { node = { parent: parents[i], fn: fid(s.names[d - 1]), id: nodeId, self: sampleTypes.map(() => 0), total: sampleTypes.map(() => 0) }; tree.set(nodeId, node) }
      s.values.forEach((v, j) => { node.total[j] += v; if (d === s.names.length) node.self[j] += v });
      parents[i] = nodeId;
    });
  }
  const valuesAgg = sampleTypes.map((t, j) => [t[0] + ':' + t[1], samples.reduce((a, s) => a + (s.values[j] || 0), 0), samples.length]);
  const tags = (tagStr || '').split(',').filter(x => x).map(kv => kv.split('='));
  const fromNs = BigInt(fromS) * 1000000000n; const durNs = (BigInt(untilS) - BigInt(fromS)) * 1000000000n;
  const treeSql = '[' + [...tree.values()].map(n => `(${n.parent},${n.fn},${n.id},[${sampleTypes.map((t, j) => `(${sq(t[0] + ':' + t[1])},${n.self[j]},${n.total[j]})`).join(',')}])`).join(',') + ']';
  const fnsSql = '[' + [...fnHash.entries()].map(([h, id]) => `(${id},${sq(Buffer.from(h, 'hex').toString('utf8'))})`).join(',') + ']';
  const values = `(${fromNs}, ${sq(type)}, ${sq(service)}, [${sampleTypes.map(t => `(${sq(t[0])},${sq(t[1])})`).join(',')}], ${sq(periodType)}, ${sq(periodUnit)}, [${tags.map(t => `(${sq(t[0])},${sq(t[1])})`).join(',')}], ${durNs}, '0', unhex('${hexOf(raw)}'), [${valuesAgg.map(v => `(${sq(v[0])},${v[1]},${v[2]})`).join(',')}], ${treeSql}, ${fnsSql})`;
  const summary = JSON.stringify({ file, service, from_s: Number(fromS), until_s: Number(untilS), tags, type_id: `${type}:${periodType}:${periodUnit}`, sampleTypes, samples: samples.length, nodes: tree.size, functions: fnHash.size, valuesAgg });
  return { values, summary };
}
const insertRows = (rows) => chq(`INSERT INTO ${DB}.profiles_input (timestamp_ns, type, service_name, sample_types_units, period_type, period_unit, tags, duration_ns, payload_type, payload, values_agg, tree, functions) VALUES
${rows.map(r => r.values).join(',\n')}`);
(async () => {
  const args = process.argv.slice(2);
  const loads = args[0] === '--batch'
    ? fs.readFileSync(args[1], 'utf8').split('\n').filter(l => l.trim()).map(l => l.split('\t'))
    : [args];
  for (let i = 0; i < loads.length; i += 50) {
    const rows = [];
    for (const l of loads.slice(i, i + 50)) rows.push(await profileRow(...l));
    await insertRows(rows);
    for (const r of rows) console.log(r.summary);
  }
})().catch(e => { console.error(e); process.exit(1) });
