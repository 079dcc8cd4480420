package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/canon-md/canon/index/indextest/citool"
)

// TestREADME runs the README's examples on the example backlog
// (testdata/example, what make demo copies) as the README's tour sets it
// up: a fresh repository, canon init, canon hooks install. Each example
// output is a fenced block after a marker, so it cannot drift from what
// canon prints:
//
//	<!-- TestREADME: canon status -->   the block is that command's output
//	<!-- TestREADME -->                 a transcript: each "$ CMD" line is
//	                                    run (sh -c), and the lines up to
//	                                    the next are its standard output
//
// The blocks run in the README's order, in one repository. In expected
// text a line "..." stands for any lines (none included) and "..." in a
// line for any text. Only what must vary is normalised, in both: times
// ("2026-11-25 17:40:24", "(1s ago)", "(in 2d 23h)") and commit hashes.
// A fenced block without a language (an output) and without a marker
// fails the test: every example output is checked.
func TestREADME(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := readmeBlocks(string(data))
	if err != nil {
		t.Fatal(err)
	}
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("exec cp -R $EXAMPLE/. .\nexec git init -q\nexec git add -A\nexec git commit -q -m example\nexec canon init\nexec canon hooks install\n")
	for i := range blocks {
		fmt.Fprintf(&script, "readme %d\n", i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "readme.txtar"), []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("CANON_NOW", "2026-11-25T17:39:00Z") // promote's dates, the workset's expiry
			return setupGit(e, example)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"readme": func(ts *testscript.TestScript, neg bool, args []string) {
				n, err := strconv.Atoi(args[0])
				ts.Check(err)
				for _, c := range blocks[n].cmds {
					_ = ts.Exec("sh", "-c", c.cmd) // a failing command (check --all) prints what the README shows
					got := ts.ReadFile("stdout")
					if !outputMatches(c.want, got) {
						ts.Fatalf("README.md line %d: the output of %s is not what the README shows.\nREADME (normalised):\n%s\ncanon printed (normalised):\n%s",
							c.line, c.cmd, normaliseOutput(c.want), normaliseOutput(got))
					}
				}
			},
		},
	})
}

// readmeCommand is one command of a README example and the output shown.
type readmeCommand struct {
	cmd, want string
	line      int
}

type readmeBlock struct{ cmds []readmeCommand }

var (
	readmeFence  = regexp.MustCompile("(?m)^```([a-z]*)\n")
	readmeMarker = regexp.MustCompile(`<!-- TestREADME(?:: (.+?))? -->\n$`)
)

// readmeBlocks finds the marked blocks, and refuses an output block
// without a marker.
func readmeBlocks(text string) ([]readmeBlock, error) {
	var out []readmeBlock
	for rest, off := text, 0; ; {
		m := readmeFence.FindStringSubmatchIndex(rest)
		if m == nil {
			return out, nil
		}
		body := rest[m[1]:]
		end := strings.Index(body, "```")
		if end < 0 {
			return nil, fmt.Errorf("README.md: a fenced block is not closed")
		}
		line := strings.Count(text[:off+m[1]], "\n") + 1
		lang := rest[m[2]:m[3]]
		mark := readmeMarker.FindStringSubmatch(rest[:m[0]])
		body, rest, off = body[:end], body[end+3:], off+m[1]+end+3
		switch {
		case mark == nil && lang == "":
			return nil, fmt.Errorf("README.md line %d: an example output without a <!-- TestREADME --> marker; mark it so that this test checks it", line)
		case mark == nil:
			continue
		case mark[1] != "":
			out = append(out, readmeBlock{cmds: []readmeCommand{{cmd: mark[1], want: body, line: line}}})
			continue
		}
		var b readmeBlock
		for i, l := range strings.SplitAfter(body, "\n") {
			if c, ok := strings.CutPrefix(l, "$ "); ok {
				b.cmds = append(b.cmds, readmeCommand{cmd: strings.TrimSpace(c), line: line + i})
				continue
			}
			if len(b.cmds) == 0 {
				return nil, fmt.Errorf("README.md line %d: a transcript starts with a $ command", line)
			}
			b.cmds[len(b.cmds)-1].want += l
		}
		out = append(out, b)
	}
}

var readmeVarying = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?`), "TIME"},
	{regexp.MustCompile(`\((in )?(\d+[smhd] ?)+( ago)?\)`), "(AGE)"},
	{regexp.MustCompile(`\b[0-9a-f]{10}\b`), "COMMIT"},
}

func normaliseOutput(s string) string {
	for _, v := range readmeVarying {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return strings.TrimRight(s, "\n")
}

// outputMatches compares an output with the README's, "..." eliding.
func outputMatches(want, got string) bool {
	w := strings.Split(normaliseOutput(want), "\n")
	g := strings.Split(normaliseOutput(got), "\n")
	if normaliseOutput(want) == "" {
		w = nil
	}
	if normaliseOutput(got) == "" {
		g = nil
	}
	var match func(i, j int) bool
	memo := map[[2]int]bool{}
	match = func(i, j int) bool {
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		var ok bool
		switch {
		case i == len(w):
			ok = j == len(g)
		case w[i] == "...":
			for jj := j; jj <= len(g) && !ok; jj++ {
				ok = match(i+1, jj)
			}
		default:
			ok = j < len(g) && lineMatches(w[i], g[j]) && match(i+1, j+1)
		}
		memo[k] = ok
		return ok
	}
	return match(0, 0)
}

func lineMatches(want, got string) bool {
	if !strings.Contains(want, "...") {
		return want == got
	}
	parts := strings.Split(want, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

func TestOutputMatches(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\n...\nc\n", "a\nb1\nb2\nc\n", true},
		{"a\n...\nc\n", "a\nc\n", true},
		{"a\nc\n", "a\nb\nc\n", false}, // a line left out needs "..."
		{".../x.md: error\n", "dir/x.md: error\n", true},
		{"synced    2026-11-25 17:40:24 (1s ago)\n", "synced    2025-03-01 12:00:00 (2m 3s ago)\n", true},
		{"head      ac1d2cd201 (main)\n", "head      0123456789 (main)\n", true},
		{"a\n", "a\nb\n", false},
		{"", "", true},
		{"", "x\n", false},
	} {
		if got := outputMatches(tc.want, tc.got); got != tc.ok {
			t.Errorf("outputMatches(%q, %q) = %v", tc.want, tc.got, got)
		}
	}
}

// TestDemo runs make demo's script (scripts/demo.sh, with the bin/canon
// make test builds first) and holds its output to what the README says
// it shows: every step runs, the commit's hook moves KB-TSK-0003 to Done,
// check --all finds the ten defects, verify agrees, and no raw JSON
// escapes into the transcript.
func TestDemo(t *testing.T) {
	bin, _ := filepath.Abs("../../bin/canon")
	if _, err := os.Stat(bin); err != nil {
		citool.Need(t, "%s is missing; make test builds it first (make build)", bin)
	}
	cmd := exec.Command("../../scripts/demo.sh")
	cmd.Env = append(os.Environ(), "DEMO_DIR="+t.TempDir(), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo.sh: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{
		"kind   task   state Done\n",
		"10 errors, 1 warning in 11 files (51 files checked)\n",
		"The demo repository stays in ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo's output has no %q:\n%s", want, text)
		}
	}
	if m := regexp.MustCompile(`(?m)^\s*"[a-z_]+": `).FindString(text); m != "" {
		t.Errorf("the demo prints a line of raw JSON (%q):\n%s", m, text)
	}
}
