// Command examplegen makes the bundled example pair of qflame (resources/examples): a small log-ingesting
// service that processes a fixed number of batches, profiled with runtime/pprof, in two versions.
//
//	examplegen -version=baseline  -cpu=baseline.cpu.pb.gz
//	examplegen -version=optimized -cpu=optimized.cpu.pb.gz
//
// The work is fixed (not the time), so a function the optimized version does not touch costs the same CPU time in
// both profiles, up to sampling noise. The optimized version changes two functions:
//   - verifyChecksums hashes each record 3 times instead of 12: a change far beyond sampling noise;
//   - renderSummary formats 960 lines per batch instead of 1000 (-4%): a real change, but far smaller than the
//     sampling noise of a few hundred samples, so a comparison must call it noise.
//
// make.sh builds it and writes the pair.
package main

import (
	"bytes"
	"compress/flate"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
)

var (
	version = flag.String("version", "baseline", "baseline | optimized")
	cpuOut  = flag.String("cpu", "", "write the CPU profile here")
	batches = flag.Int("batches", 3000, "how many batches to process (the work is fixed, not the time)")
)

// sink keeps results alive so that the compiler cannot drop the work.
var sink uint64

type record struct {
	service string
	latency int
	payload []byte
}

// The knobs the optimized version turns.
var (
	checksumRounds = 12
	summaryLines   = 1000
)

//go:noinline
func decodeBatch(lines []string) []record {
	out := make([]record, 0, len(lines))
	for _, l := range lines {
		f := strings.Split(l, " ")
		n, _ := strconv.Atoi(f[1])
		out = append(out, record{service: f[0], latency: n, payload: []byte(f[2])})
	}
	return out
}

// fnv is small enough for the compiler to inline: the profiles carry inline frames.
func fnv(h uint64, b byte) uint64 { return (h ^ uint64(b)) * 1099511628211 }

//go:noinline
func verifyChecksums(recs []record) uint64 {
	var acc uint64
	for _, r := range recs {
		h := uint64(1469598103934665603)
		for round := 0; round < checksumRounds; round++ {
			for _, b := range r.payload {
				h = fnv(h, b)
			}
		}
		acc += h
	}
	return acc
}

//go:noinline
func sortByLatency(recs []record) {
	sort.Slice(recs, func(i, j int) bool { return recs[i].latency < recs[j].latency })
}

// One compressor for the run, reset per batch: a new one per batch would make the garbage collector's work
// a large and noisy part of the profile.
var (
	compressed bytes.Buffer
	compressor, _ = flate.NewWriter(&compressed, flate.BestSpeed)
)

//go:noinline
func compressBatch(recs []record) int {
	compressed.Reset()
	compressor.Reset(&compressed)
	for _, r := range recs {
		compressor.Write(r.payload)
	}
	compressor.Close()
	return compressed.Len()
}

//go:noinline
func renderSummary(recs []record) int {
	n := 0
	for i := 0; i < summaryLines; i++ {
		r := recs[(i*7919)%len(recs)]
		n += len(fmt.Sprintf("%-12s p%02d %6d ms %x", r.service, i, r.latency, r.payload[:8]))
	}
	return n
}

func processBatch(lines []string) {
	recs := decodeBatch(lines)
	sink += verifyChecksums(recs)
	sortByLatency(recs)
	sink += uint64(compressBatch(recs))
	sink += uint64(renderSummary(recs))
}

// makeLines is the input: the same for both versions.
func makeLines(batch int) []string {
	services := []string{"checkout", "search", "auth", "payments", "catalog"}
	lines := make([]string, 600)
	for i := range lines {
		v := (i*7919 + batch*104729) % 1000003
		lines[i] = fmt.Sprintf("%s %d %064x", services[v%len(services)], v%5000, uint64(v)*0x9e3779b97f4a7c15)
	}
	return lines
}

func main() {
	flag.Parse()
	switch *version {
	case "baseline":
	case "optimized":
		checksumRounds = 3
		summaryLines = 960
	default:
		log.Fatalf("unknown -version %q", *version)
	}
	inputs := make([][]string, 16)
	for i := range inputs {
		inputs[i] = makeLines(i)
	}
	if *cpuOut != "" {
		f, err := os.Create(*cpuOut)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	for b := 0; b < *batches; b++ {
		processBatch(inputs[b%len(inputs)])
	}
}
