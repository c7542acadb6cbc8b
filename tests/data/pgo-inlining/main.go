// A CPU-bound program for tst_pgoexport: built once as is and once with -gcflags=-l (no inlining), its CPU
// profiles show the call main.spin -> main.mix as a real call in one build and as an inline frame in the other.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// mix is small enough for Go's inliner (its cost is far under the budget of 80).
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

//go:noinline
func spin(until time.Time) uint64 {
	var acc uint64
	for time.Now().Before(until) {
		for i := uint64(0); i < 100000; i++ {
			acc += mix(acc + i)
		}
	}
	return acc
}

func main() {
	out := flag.String("o", "cpu.pprof", "where the CPU profile goes")
	seconds := flag.Float64("s", 1.5, "how long to spin")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	acc := spin(time.Now().Add(time.Duration(*seconds * float64(time.Second))))
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(acc)
}
