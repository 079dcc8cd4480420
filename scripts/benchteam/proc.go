package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sample is one timed process: wall time, CPU time (user and system, its
// waited-for children included, as wait4 gives it) and peak RSS (the
// largest of the process and those children: what /usr/bin/time -f %M
// prints, from the same rusage).
type sample struct {
	Wall time.Duration `json:"wall_ns"`
	CPU  time.Duration `json:"cpu_ns"`
	RSS  int64         `json:"rss_kb"`
}

// rssTurn makes measured run each timed process under /usr/bin/time -f
// %M and keep only the peak RSS it prints: a child of this program
// started by Go (vfork) is charged this program's own peak RSS, so the
// rusage of wait4 cannot give a small process's. The warm-up turn runs
// so; the timed turns do not (time's own start would be timed).
var rssTurn bool

// measured is proc for a timed process.
func measured(dir, stdin string, env []string, name string, args ...string) (string, sample, error) {
	if !rssTurn {
		return proc(dir, stdin, env, name, args...)
	}
	f, err := os.CreateTemp("", "benchteam-rss")
	if err != nil {
		return "", sample{}, err
	}
	f.Close()
	defer os.Remove(f.Name())
	out, s, err := proc(dir, stdin, env, "/usr/bin/time", append([]string{"-f", "%M", "-o", f.Name(), name}, args...)...)
	data, _ := os.ReadFile(f.Name())
	lines := strings.Fields(string(data))
	s.RSS = 0
	if len(lines) > 0 {
		s.RSS, _ = strconv.ParseInt(lines[len(lines)-1], 10, 64)
	}
	return out, s, err
}

// gitEnv is the environment of every process: no user or system git
// configuration, no GIT_* variable of the caller, canon's hooks not
// skipped (CANON_SKIP would make `canon hook` do nothing).
func gitEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CANON_SKIP" || k == "CANON_CPUPROFILE" || (strings.HasPrefix(k, "GIT_") && k != "GIT_EXEC_PATH") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@canon.invalid",
		"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@canon.invalid")
	return append(env, extra...)
}

// proc runs name args in dir with stdin, and returns its standard output
// and what it cost. A non-zero exit is an error carrying its stderr.
func proc(dir, stdin string, env []string, name string, args ...string) (string, sample, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	if env == nil {
		cmd.Env = gitEnv()
	}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	t := time.Now()
	err := cmd.Run()
	s := sample{Wall: time.Since(t)}
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			s.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			s.RSS = ru.Maxrss
		}
	}
	if err != nil {
		return out.String(), s, fmt.Errorf("%s %s (in %s): %w: %s", name, strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return out.String(), s, nil
}

// git runs git in dir and returns its output, trimmed.
func git(dir string, args ...string) (string, error) {
	out, _, err := proc(dir, "", nil, "git", args...)
	return strings.TrimSpace(out), err
}

// gitIn is git with stdin.
func gitIn(dir, stdin string, args ...string) (string, error) {
	out, _, err := proc(dir, stdin, nil, "git", args...)
	return strings.TrimSpace(out), err
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchteam: error:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// loadavg is the one-minute load average.
func loadavg() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var l float64
	if _, err := fmt.Sscan(string(data), &l); err != nil {
		return -1
	}
	return l
}

type stats struct {
	Wall, CPU time.Duration
	RSS       int64 // KB: the most of the samples
	N         int
}

func summarise(s []sample) stats {
	if len(s) == 0 {
		return stats{}
	}
	w := make([]time.Duration, len(s))
	c := make([]time.Duration, len(s))
	r := make([]int64, len(s))
	for i, x := range s {
		w[i], c[i], r[i] = x.Wall, x.CPU, x.RSS
	}
	top := int64(0)
	for _, x := range r {
		top = max(top, x)
	}
	return stats{Wall: medianD(w), CPU: medianD(c), RSS: top, N: len(s)}
}

func medianD(d []time.Duration) time.Duration {
	s := append([]time.Duration{}, d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianF(d []float64) float64 {
	s := append([]float64{}, d...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ms formats a duration in milliseconds, three significant figures.
func ms(d time.Duration) string {
	v := float64(d) / 1e6
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
