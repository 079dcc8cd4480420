package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in the scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"canon": func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: real git
// repositories, real commits and checkouts, the canon binary, exact output.
func TestScripts(t *testing.T) {
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			return setupGit(e, example)
		},
	})
}

// setupGit gives every script a private git identity and configuration and
// fixed dates, so commit hashes are the same on every machine.
func setupGit(e *testscript.Env, example string) error {
	home := e.WorkDir + "/.home"
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := "[user]\n\tname = Canon Test\n\temail = test@canon.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[core]\n\tautocrlf = false\n"
	if err := os.WriteFile(home+"/.gitconfig", []byte(gitconfig), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     home + "/.config",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   home + "/.gitconfig",
		"GIT_AUTHOR_DATE":     "2025-03-01T12:00:00Z",
		"GIT_COMMITTER_DATE":  "2025-03-01T12:00:00Z",
		"EXAMPLE":             example,
		"TZ":                  "UTC",
	} {
		e.Setenv(k, v)
	}
	return nil
}
