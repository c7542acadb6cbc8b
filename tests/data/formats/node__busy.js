// A CPU-bound program for node --cpu-prof: two functions that share the time, one called from the other.
function inner(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
function outer(n) { let s = 0; for (let k = 0; k < 20; k++) s += inner(n); return s; }
function spin(ms) { const end = Date.now() + ms; let s = 0; while (Date.now() < end) s += outer(20000); return s; }
console.log(spin(300) > 0 ? "ok" : "no");
