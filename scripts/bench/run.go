package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// proc is one finished child process.
type proc struct {
	wall   time.Duration
	rssMB  float64 // peak resident set of the child (getrusage ru_maxrss)
	stdout string
	stderr string
}

// run starts name with args in dir and waits for it: the whole process,
// fork to exit, is what is timed.
func run(dir string, env []string, name string, args ...string) (proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	p := proc{wall: time.Since(start), stdout: out.String(), stderr: errb.String()}
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			p.rssMB = float64(ru.Maxrss) / 1024 // KiB on Linux
		}
	}
	if err != nil {
		return p, fmt.Errorf("%s %s (in %s): %w: %s", filepath.Base(name), strings.Join(args, " "), dir, err,
			lastLines(p.stderr+p.stdout, 5))
	}
	return p, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// gitEnv is for every git command the benchmark runs itself: no repository
// variables inherited from a calling hook, no user or system config, and
// CANON_SKIP=1 in case hooks are installed after all.
func gitEnv() []string {
	return append(baseEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "CANON_SKIP=1")
}

// canonEnv is for the measured canon processes: the same, without CANON_SKIP
// (which would make `canon hook` do nothing).
func canonEnv() []string {
	return append(baseEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
}

func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CANON_SKIP" || (strings.HasPrefix(k, "GIT_") && k != "GIT_EXEC_PATH") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func git(dir string, args ...string) (string, error) {
	p, err := run(dir, gitEnv(), "git", args...)
	return strings.TrimSpace(p.stdout), err
}

// indexedHead reads the commit the index reflects straight from its meta
// table, read-only: asking canon would make it catch up first.
func indexedHead(repoDir string) (string, error) {
	path := filepath.Join(repoDir, ".git", "canon", "index.db")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no index: %w", err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var head string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'head'`).Scan(&head); err != nil {
		return "", fmt.Errorf("read the indexed head: %w", err)
	}
	return head, nil
}

// expectIndexed fails unless the index reflects commit.
func expectIndexed(repoDir, commit, when string) error {
	h, err := indexedHead(repoDir)
	if err != nil {
		return fmt.Errorf("%s: %w", when, err)
	}
	if h != commit {
		return fmt.Errorf("%s: the index reflects %.12s, want %.12s", when, h, commit)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
