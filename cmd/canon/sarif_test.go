package main

import (
	"bytes"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/citool"
)

// TestSARIFValidates runs Microsoft's SARIF validator (the npm package
// @microsoft/sarif-multitool; .ci/run installs it into scripts/out/sarif) on
// canon check --format sarif over the example backlog and its ten defects.
func TestSARIFValidates(t *testing.T) {
	tool := os.Getenv("SARIF_MULTITOOL")
	if tool == "" {
		tool, _ = filepath.Abs("../../scripts/out/sarif/node_modules/.bin/sarif-multitool")
	}
	if _, err := os.Stat(tool); err != nil {
		citool.Need(t, "the SARIF validator is not installed (%v); .ci/run installs it", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../testdata/example/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the example: %v\n%s", err, out)
	}
	// File names a URI must percent-encode: a space, a comma, "%", ":"
	// and non-ASCII letters, each with a finding.
	for _, name := range []string{"docs/a,b:c 100%.md", "docs/ünïcødé – ß.md"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte("# Odd name\n\n[gone](gone.md)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"canon", "-C", dir, "check", "--all", "--format", "sarif"}, &stdout, &stderr); code != 1 {
		t.Fatalf("canon check exited %d, want 1 (the example has defects): %s", code, stderr.String())
	}
	for _, uri := range []string{`"uri": "docs/a%2Cb%3Ac%20100%25.md"`, `"uri": "docs/%C3%BCn%C3%AFc%C3%B8d%C3%A9%20%E2%80%93%20%C3%9F.md"`} {
		if !strings.Contains(stdout.String(), uri) {
			t.Errorf("the SARIF log has no %s", uri)
		}
	}
	log := filepath.Join(t.TempDir(), "check.sarif")
	if err := os.WriteFile(log, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "validate", log).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Analysis completed successfully") || strings.Contains(string(out), ": error") {
		t.Fatalf("the SARIF log does not validate: %v\n%s", err, out)
	}
	if strings.Contains(string(out), ": warning") {
		t.Errorf("the validator warns:\n%s", out)
	}
}
