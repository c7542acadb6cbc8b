// The live Go service of tst_liveurl (built there with Debian's Go): net/http/pprof on 127.0.0.1, over HTTP and
// TLS, with the endpoints the tests need besides (snapshots, credentials, faults). Its own file: 130 lines of Go.
#pragma once

namespace qflame::test {

// Busy handlers and goroutines so that every profile has samples: CPU in spin, allocations in churn, a contended
// mutex and blocking channel operations. /snapshot/NAME answers the bytes of /debug/pprof/NAME taken at its first
// request, the same on every later one, so that two fetches can be compared exactly.
inline constexpr char kLivePprofService[] = R"GO(package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var sink [][]byte

func spin(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i%7) * 1.5
	}
	return s
}

func churn() {
	for i := 0; i < 100; i++ {
		sink = append(sink, make([]byte, 4096))
		if len(sink) > 2000 {
			sink = sink[:0]
		}
	}
}

func main() {
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	var mu sync.Mutex
	for g := 0; g < 2; g++ {
		go func() {
			for {
				mu.Lock()
				spin(20000)
				churn()
				mu.Unlock()
			}
		}()
	}
	ch := make(chan int)
	go func() {
		for {
			ch <- 1
			time.Sleep(time.Millisecond)
		}
	}()
	go func() {
		for range ch {
		}
	}()
	var snapMu sync.Mutex
	snaps := map[string][]byte{}
	http.HandleFunc("/snapshot/", func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.RequestURI()
		snapMu.Lock()
		b, ok := snaps[key]
		snapMu.Unlock()
		if !ok {
			rec := httptest.NewRecorder()
			inner, _ := http.NewRequest("GET", strings.Replace(key, "/snapshot/", "/debug/pprof/", 1), nil)
			http.DefaultServeMux.ServeHTTP(rec, inner)
			b = rec.Body.Bytes()
			snapMu.Lock()
			snaps[key] = b
			snapMu.Unlock()
		}
		w.Write(b)
	})
	http.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, spin(1000000)) })
	// An error status whose body never ends: the client must not wait for its timeout.
	http.HandleFunc("/stuck-error", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("profiling is broken\n"))
		w.(http.Flusher).Flush()
		time.Sleep(120 * time.Second)
	})
	http.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte{0x1f}, 3<<20))
	})
	// /basic/NAME and /bearer/NAME: /snapshot/NAME for whom the Authorization header names, 401 for anyone else.
	// /counted/NAME: /snapshot/NAME, counting the requests (/served tells the count).
	serveAs := func(w http.ResponseWriter, r *http.Request, prefix string) {
		inner, _ := http.NewRequest("GET", strings.Replace(r.URL.RequestURI(), prefix, "/snapshot/", 1), nil)
		http.DefaultServeMux.ServeHTTP(w, inner)
	}
	guarded := func(prefix string, allowed func(r *http.Request) bool) {
		http.HandleFunc(prefix, func(w http.ResponseWriter, r *http.Request) {
			if !allowed(r) {
				w.Header().Set("WWW-Authenticate", `Basic realm="pprof"`)
				http.Error(w, "who are you?", http.StatusUnauthorized)
				return
			}
			serveAs(w, r, prefix)
		})
	}
	guarded("/basic/", func(r *http.Request) bool { u, p, ok := r.BasicAuth(); return ok && u == "alice" && p == "s3cret" })
	guarded("/bearer/", func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer tok-123" })
	var served int64
	http.HandleFunc("/counted/", func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt64(&served, 1)
		serveAs(w, r, "/counted/")
	})
	http.HandleFunc("/served", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, atomic.LoadInt64(&served)) })
	// /files/NAME: the file of the test's directory, as saved (raw or zstd-compressed pprof, not Go's gzip).
	http.Handle("/files/", http.StripPrefix("/files/", http.FileServer(http.Dir("."))))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The same handlers over TLS, with the test CA's certificate for 127.0.0.1 (tests/qryn/tls).
	tlsLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go http.ServeTLS(tlsLn, nil, os.Args[1], os.Args[2])
	fmt.Println(ln.Addr().(*net.TCPAddr).Port, tlsLn.Addr().(*net.TCPAddr).Port)
	http.Serve(ln, nil)
}
)GO";

}   // namespace qflame::test
