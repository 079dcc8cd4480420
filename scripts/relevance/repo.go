package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// maxDocBytes bounds what the baseline reads of one file.
const maxDocBytes = 4 << 20

// run runs a command in dir and returns its stdout; a failure carries the
// last lines of stderr.
func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), &cmdError{cmd: name + " " + strings.Join(args, " "), err: err, stderr: strings.TrimSpace(errb.String())}
	}
	return out.Bytes(), nil
}

// cmdError is a command that failed, with what it said.
type cmdError struct {
	cmd, stderr string
	err         error
}

func (e *cmdError) Error() string {
	msg := e.stderr
	if lines := strings.Split(msg, "\n"); len(lines) > 3 {
		msg = strings.Join(lines[len(lines)-3:], "\n")
	}
	return fmt.Sprintf("%s: %v: %s", e.cmd, e.err, msg)
}

func (e *cmdError) Unwrap() error { return e.err }

// fetchError says in one sentence that r cannot be fetched and what to do.
func fetchError(r Repo, err error) error {
	why := err.Error()
	if ce := (*cmdError)(nil); errors.As(err, &ce) && ce.stderr != "" {
		lines := strings.Split(ce.stderr, "\n")
		why = strings.TrimPrefix(lines[len(lines)-1], "fatal: ")
	}
	return fmt.Errorf("cannot fetch %s (%s): check the network, or pass --mirror DIR, a folder of mirrors OWNER+NAME/repo", r.URL, why)
}

// mirrorOf finds a local mirror of url under dir: dir/OWNER+NAME/repo or
// dir/OWNER+NAME (the layout of a folder of bare mirrors).
func mirrorOf(dir, url string) (string, error) {
	owner, name := path.Base(path.Dir(url)), strings.TrimSuffix(path.Base(url), ".git")
	base := filepath.Join(dir, owner+"+"+name)
	for _, p := range []string{filepath.Join(base, "repo"), base} {
		for _, marker := range []string{"HEAD", ".git"} { // bare, or a clone
			if _, err := os.Stat(filepath.Join(p, marker)); err == nil {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("no mirror of %s at %s: pass --mirror a folder of mirrors OWNER+NAME/repo, or leave it out to fetch from the network", url, filepath.Join(base, "repo"))
}

// source returns a git repository that holds r.Commit: the local mirror
// when mirrors is set, else a bare clone of r.URL kept under cache and
// fetched again when it lacks the commit.
func source(r Repo, mirrors, cache string) (string, error) {
	if mirrors != "" {
		m, err := mirrorOf(mirrors, r.URL)
		if err != nil {
			return "", err
		}
		if _, err := run(m, "git", "cat-file", "-e", r.Commit+"^{commit}"); err != nil {
			return "", fmt.Errorf("the mirror %s does not hold commit %s", m, r.Commit)
		}
		return m, nil
	}
	clone := filepath.Join(cache, r.Name+".git")
	if _, err := os.Stat(clone); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return "", err
		}
		if _, err := run(cache, "git", "clone", "--quiet", "--bare", r.URL, clone); err != nil {
			os.RemoveAll(clone)
			return "", fetchError(r, err)
		}
	}
	if _, err := run(clone, "git", "cat-file", "-e", r.Commit+"^{commit}"); err != nil {
		if _, err := run(clone, "git", "fetch", "--quiet", r.URL, "+refs/heads/*:refs/heads/*"); err != nil {
			return "", fetchError(r, err)
		}
		if _, err := run(clone, "git", "cat-file", "-e", r.Commit+"^{commit}"); err != nil {
			return "", fmt.Errorf("%s does not hold commit %s", r.URL, r.Commit)
		}
	}
	return clone, nil
}

// checkout replaces dir with a checkout of src at commit.
func checkout(src, commit, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if _, err := run(filepath.Dir(dir), "git", "clone", "--quiet", "--no-checkout", src, dir); err != nil {
		return err
	}
	_, err := run(dir, "git", "-c", "advice.detachedHead=false", "checkout", "--quiet", commit)
	return err
}

// markdown reads the checkout's tracked Markdown files for the baseline.
func markdown(dir string) (map[string]string, error) {
	out, err := run(dir, "git", "ls-files", "-z", "--", "*.md")
	if err != nil {
		return nil, err
	}
	docs := map[string]string{}
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" {
			continue
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(f, maxDocBytes))
		f.Close()
		if err != nil {
			return nil, err
		}
		docs[p] = string(data)
	}
	return docs, nil
}

// Canon runs the canon binary under test in one checkout.
type Canon struct {
	bin, dir string
}

// init builds the index and returns how many documents it holds.
func (c Canon) init() (int, error) {
	out, err := run(c.dir, c.bin, "init", "--json")
	if err != nil {
		return 0, err
	}
	var r struct {
		Documents *int `json:"documents"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Documents == nil {
		return 0, fmt.Errorf("canon init --json printed no document count: %.200s", out)
	}
	return *r.Documents, nil
}

// search answers with the documents of `canon search --json --limit N`.
func (c Canon) search(q string, limit int) (Answer, error) {
	out, err := run(c.dir, c.bin, "search", "--json", "--limit", strconv.Itoa(limit), q)
	if err != nil {
		return Answer{}, err
	}
	var r struct {
		Hits *[]struct {
			Path string `json:"path"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Hits == nil {
		return Answer{}, fmt.Errorf("canon search --json printed no hits array for %q: %.200s", q, out)
	}
	var paths []string
	for _, h := range *r.Hits {
		paths = append(paths, h.Path)
	}
	return Answer{Ranked: dedupe(paths)}, nil
}

// context answers with the entries of `canon context --json`, in pack order.
func (c Canon) context(q string) (Answer, error) {
	out, err := run(c.dir, c.bin, "context", "--json", q)
	if err != nil {
		return Answer{}, err
	}
	var r struct {
		Entries *[]struct {
			Path   string `json:"path"`
			Tokens int    `json:"tokens"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Entries == nil {
		return Answer{}, fmt.Errorf("canon context --json printed no entries array for %q: %.200s", q, out)
	}
	var a Answer
	var paths []string
	for _, e := range *r.Entries {
		paths = append(paths, e.Path)
		a.Tokens += e.Tokens
		if generated(e.Path) {
			a.GenTokens += e.Tokens
		}
	}
	a.Ranked = dedupe(paths)
	return a, nil
}

// generated tells the documents tools rewrite from lists of items (Kano's
// views/, its *.index.md stubs, *.generated.md briefs): what a pack should
// not spend its budget on.
func generated(p string) bool {
	return strings.Contains("/"+p, "/views/") || strings.HasSuffix(p, ".index.md") || strings.HasSuffix(p, ".generated.md")
}
