// Package rounds times the steps of a benchmark in turns: each round runs
// every step once, starting one step later than the round before, so that
// whatever else the machine does falls on all steps alike. The search and
// MCP benchmarks measure a call beside what it is made of this way. It
// imports nothing of canon, so index's own tests can use it.
package rounds

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// Step is one thing a benchmark times.
type Step struct {
	Name string
	Run  func() error
}

// Times runs every step once to warm up (a first call may fill caches),
// then b.N rounds, and returns each step's times in milliseconds, sorted.
// It logs the load average before and after, and every step's p50 / p90
// after what.
func Times(b *testing.B, what string, steps []Step) [][]float64 {
	b.Helper()
	for _, s := range steps {
		if err := s.Run(); err != nil {
			b.Fatalf("%s: %v", s.Name, err)
		}
	}
	b.Logf("load average before: %s", load())
	times := make([][]float64, len(steps))
	b.ResetTimer()
	for i := range b.N {
		for k := range steps {
			j := (i + k) % len(steps)
			start := time.Now()
			if err := steps[j].Run(); err != nil {
				b.Fatalf("%s: %v", steps[j].Name, err)
			}
			times[j] = append(times[j], float64(time.Since(start).Microseconds())/1000)
		}
	}
	b.StopTimer()
	b.Logf("load average after: %s", load())
	var line []string
	for j, s := range steps {
		sort.Float64s(times[j])
		line = append(line, fmt.Sprintf("%s %.2f / %.2f", s.Name, P(times[j], 50), P(times[j], 90)))
	}
	b.Logf("%sp50 / p90 ms (%d rounds): %s", what, b.N, strings.Join(line, ", "))
	return times
}

// P is the p-th percentile of sorted times.
func P(sorted []float64, p int) float64 {
	return sorted[len(sorted)*p/100]
}

func load() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	return strings.Join(f[:min(3, len(f))], " ")
}
