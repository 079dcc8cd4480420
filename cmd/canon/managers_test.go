package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/canon-md/canon/index/indextest/citool"
)

// TestHookManagers runs the real hook managers on canon, set up as
// docs/hook-managers.md says, from the snippet files TestDocSnippets
// compares with that page: lefthook and husky from npm, the pre-commit
// framework from Debian (3.0.x on bookworm) and a 4.x. .ci/run installs them
// into scripts/out; a manager that is not there skips with the reason.
func TestHookManagers(t *testing.T) {
	out, err := filepath.Abs("../../scripts/out")
	if err != nil {
		t.Fatal(err)
	}
	npmBin := filepath.Join(out, "hookmgr", "node_modules", ".bin")
	for _, tc := range []struct {
		name    string
		scripts []string
		find    func() (dir, why string)
	}{
		{"lefthook", []string{"lefthook.txtar", "lefthook_takeover.txtar"}, func() (string, string) {
			return npmTool(npmBin, "lefthook", "version", "2.")
		}},
		{"husky", []string{"husky.txtar", "husky_order.txtar"}, func() (string, string) {
			if _, err := exec.LookPath("node"); err != nil {
				return "", "node is not installed; husky is a node program"
			}
			return npmTool(npmBin, "husky", "", "")
		}},
		{"pre-commit-3", []string{"precommit.txtar"}, func() (string, string) {
			return findPreCommit("/usr/bin", "3.")
		}},
		{"pre-commit-4", []string{"precommit.txtar"}, func() (string, string) {
			return findPreCommit(filepath.Join(out, "precommit4", "bin"), "4.")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, why := tc.find()
			if why != "" {
				citool.Need(t, "%s; .ci/run installs it", why)
			}
			var files []string
			for _, s := range tc.scripts {
				files = append(files, filepath.Join("testdata", "managers", s))
			}
			snippets, _ := filepath.Abs("../../hooks/snippets")
			manifest, _ := filepath.Abs("../../.pre-commit-hooks.yaml")
			example, _ := filepath.Abs("../../testdata/example")
			testscript.Run(t, testscript.Params{
				Files:               files,
				RequireExplicitExec: true,
				Setup: func(e *testscript.Env) error {
					if err := setupGit(e, example); err != nil {
						return err
					}
					e.Setenv("PATH", dir+string(os.PathListSeparator)+e.Getenv("PATH"))
					e.Setenv("SNIPPETS", snippets)
					e.Setenv("MANIFEST", manifest)
					e.Setenv("NO_COLOR", "1")
					e.Setenv("LEFTHOOKDIR", dir)
					e.Setenv("PRECOMMITDIR", dir)
					return nil
				},
			})
		})
	}
}

// npmTool finds a tool .ci/run installed from npm and checks its version.
func npmTool(bin, name, versionArg, want string) (string, string) {
	p := filepath.Join(bin, name)
	if _, err := os.Stat(p); err != nil {
		return "", name + " is not installed in " + bin
	}
	if versionArg != "" {
		v, err := exec.Command(p, versionArg).Output()
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(v)), want) {
			return "", name + " " + strings.TrimSpace(string(v)) + " is not the version " + want + "x these tests are for"
		}
	}
	return bin, ""
}

var preCommitVersion = regexp.MustCompile(`^pre-commit (\d+\.\d+\.\d+)`)

// findPreCommit finds the pre-commit framework of one major version in dir.
func findPreCommit(dir, major string) (string, string) {
	p := filepath.Join(dir, "pre-commit")
	v, err := exec.Command(p, "--version").Output()
	if err != nil {
		return "", "the pre-commit framework " + major + "x is not installed at " + p
	}
	m := preCommitVersion.FindStringSubmatch(string(v))
	if m == nil || !strings.HasPrefix(m[1], major) {
		return "", p + " is " + strings.TrimSpace(string(v)) + ", not " + major + "x"
	}
	return dir, ""
}
