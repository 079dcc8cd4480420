package hooks

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/gitsync"
)

// HookReport is one hook as git will run it, and whether canon runs in it.
type HookReport struct {
	HookStatus
	// Kind is whose file git runs: canon, lefthook, husky, pre-commit,
	// script (someone else's) or missing.
	Kind      string `json:"kind"`
	RunsCanon bool   `json:"runs_canon"`
	Via       string `json:"via,omitempty"` // what calls canon: the shim, a manager's config, a script
	Why       string `json:"why,omitempty"` // why canon will not run there
	// Skippable names the repository's own command that, failing, stops
	// the hook manager before it reaches canon, and how to put canon first.
	Skippable string `json:"can_be_skipped,omitempty"`
}

// Inspection says whether canon will run on the next commit and checkout, and
// what stands in the way.
type Inspection struct {
	Dir       string       `json:"hooks_dir"`
	HooksPath string       `json:"core_hooks_path"`
	Managers  []Found      `json:"managers"`
	Hooks     []HookReport `json:"hooks"`
	// Commit: canon runs at the next commit (pre-commit and post-commit);
	// Checkout: at the next branch switch (post-checkout).
	Commit   bool     `json:"runs_on_commit"`
	Checkout bool     `json:"runs_on_checkout"`
	Problems []string `json:"problems"`
	// CanonOnPath says the hooks find canon on PATH; without it they do
	// nothing, so canon runs on neither commit nor checkout.
	CanonOnPath bool `json:"canon_on_path"`
	// Fix is the command that makes canon run where it does not:
	// canon hooks install, or a manager's own step (npx husky).
	Fix string `json:"fix,omitempty"`
	// MergeDriver says whether .gitattributes names canon's merge driver
	// and whether this clone registered it.
	MergeDriver DriverState `json:"merge_driver"`

	root string
}

// Inspect finds out, the way git will, which hook files run and whether
// canon is in them, through its own shims or a hook manager.
func Inspect(ctx context.Context, r *gitsync.Repo) (*Inspection, error) {
	loc, err := Locate(ctx, r)
	if err != nil {
		return nil, err
	}
	rep := &Inspection{Dir: loc.Dir, HooksPath: loc.HooksPath, Managers: Detect(r.Root, loc.Dir), Problems: []string{}, root: r.Root}
	rel := func(p string) string { return relTo(r.Root, p) }
	for _, name := range Names {
		rep.Hooks = append(rep.Hooks, inspectOne(r.Root, loc.Dir, name, rel))
	}
	byName := map[string]bool{}
	for _, h := range rep.Hooks {
		byName[h.Name] = h.RunsCanon
	}
	rep.Commit = byName["pre-commit"] && byName["post-commit"]
	rep.Checkout = byName["post-checkout"]

	// Shims in the folder git would use without core.hooksPath.
	if out, err := r.Git(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir"); err == nil {
		def := filepath.Join(strings.TrimSpace(string(out)), "hooks")
		if !samePath(def, loc.Dir) {
			var dead []string
			for _, name := range Names {
				if st := statusOf(r.Root, def, name); st.State == StateCanon || st.State == StateChained {
					dead = append(dead, name)
				}
			}
			if len(dead) > 0 {
				rep.Problems = append(rep.Problems, fmt.Sprintf(
					"canon's shims in %s (%s) will not run: git runs the hooks in %s (core.hooksPath = %s); run canon hooks uninstall --hooks-path %s, then canon hooks install",
					rel(def), strings.Join(dead, ", "), rel(loc.Dir), loc.HooksPath, rel(def)))
			}
			rep.Problems = append(rep.Problems, leftovers(r.Root, def, rel)...)
		}
	}
	rep.Problems = append(rep.Problems, leftovers(r.Root, loc.Dir, rel)...)
	for _, h := range rep.Hooks {
		if h.RunsCanon && h.Skippable != "" {
			rep.Problems = append(rep.Problems, "canon can be skipped at "+h.Name+": "+h.Skippable)
		}
	}
	if rep.MergeDriver = MergeDriverState(ctx, r); rep.MergeDriver.Problem() != "" {
		rep.Problems = append(rep.Problems, rep.MergeDriver.Problem())
	}
	if isHuskyDir(loc.Dir) {
		var ours []string
		for _, h := range rep.Hooks {
			if h.State == StateCanon || h.State == StateChained {
				ours = append(ours, h.Name)
			}
		}
		if len(ours) > 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf(
				"canon's shims are in husky's folder %s (%s): husky rewrites it on its next run (npm install runs it), and a chained husky hook skips your .husky scripts; run canon hooks uninstall, then canon hooks install --manager husky",
				rel(loc.Dir), strings.Join(ours, ", ")))
		}
	}
	rep.Fix = "canon hooks install"
	for _, f := range rep.Managers {
		if f.OwnsHooks && f.Manager != Husky {
			// install alone prints the snippet for these; --manager adds it.
			rep.Fix = "canon hooks install --manager " + string(f.Manager)
		}
	}
	if !isHuskyDir(loc.Dir) && managerCallsCanon(r.Root, Husky) {
		// canon hooks install --manager husky added canon to .husky, but
		// husky is not set up in this clone (npm install was not run):
		// git does not run .husky's scripts until it is.
		for i := range rep.Hooks {
			if h := &rep.Hooks[i]; !h.RunsCanon {
				h.Why = "git does not run .husky/" + h.Name + ", which calls canon, until husky is set up in this clone (core.hooksPath is not .husky/_)"
			}
		}
		rep.Fix = "npx husky (npm install runs it too)"
	}
	if _, err := exec.LookPath("canon"); err == nil {
		rep.CanonOnPath = true
	} else {
		rep.Commit, rep.Checkout = false, false
	}
	return rep, nil
}

func inspectOne(root, dir, name string, rel func(string) string) HookReport {
	h := HookReport{HookStatus: statusOf(root, dir, name), Kind: "missing"}
	if h.State == StateMissing {
		h.Why = "no " + name + " hook in " + rel(dir)
		return h
	}
	data, err := readHook(root, dir, h.Path)
	if err != nil {
		h.Why = err.Error()
		return h
	}
	h.Kind = kindOf(data, dir)
	switch h.Kind {
	case "canon":
		h.RunsCanon, h.Via = true, "canon's shim"
	case string(Lefthook):
		var f string
		if h.RunsCanon, f = lefthookRunsCanon(root, name); h.RunsCanon {
			h.Via = "lefthook (" + f + ")"
			h.Skippable = lefthookSkips(root, f, name)
		} else {
			h.Why = "lefthook runs this hook, and its configuration does not call canon hook " + name
		}
	case string(Husky):
		var p string
		if h.RunsCanon, p = huskyRunsCanon(root, dir, name); h.RunsCanon {
			h.Via = "husky (" + rel(p) + ")"
			h.Skippable = huskySkips(root, p, name)
		} else {
			h.Why = "husky runs this hook, and " + rel(p) + " does not call canon hook " + name
		}
	case string(PreCommit):
		switch {
		case preCommitRunsCanon(root, name):
			h.RunsCanon, h.Via = true, "pre-commit ("+preCommitConfig+")"
			h.Skippable = preCommitSkips(root, name)
		case kindOfFile(root, h.Path+".legacy", dir) == "canon":
			// pre-commit install keeps the hook it found as NAME.legacy
			// and runs it first.
			h.RunsCanon, h.Via = true, "canon's shim, kept by pre-commit as "+name+".legacy"
		default:
			h.Why = "the pre-commit framework runs this hook, and " + preCommitConfig + " has no canon hook for the " + name + " stage"
		}
	default:
		if h.Canons {
			h.RunsCanon, h.Via = true, "the hook script"
		} else {
			h.Why = "this hook does not call canon"
		}
	}
	if h.RunsCanon && !h.Runs {
		h.RunsCanon, h.Why = false, "not executable, so git skips it"
	}
	return h
}

func kindOfFile(root, p, dir string) string {
	data, err := readHook(root, dir, p)
	if err != nil {
		return "missing"
	}
	return kindOf(data, dir)
}

// leftovers reports canon's files a hook manager left behind where git
// never runs them.
func leftovers(root, dir string, rel func(string) string) []string {
	var out []string
	for _, name := range Names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p + origSuffix); err == nil && kindOfFile(root, p, dir) != "canon" {
			out = append(out, fmt.Sprintf(
				"%s is the hook canon chained, but %s is no longer canon's shim (a hook manager replaced it), so git never runs it; move it back in place of the hook or delete it",
				rel(p+origSuffix), rel(p)))
		}
		if kindOfFile(root, p+".old", dir) == "canon" {
			out = append(out, fmt.Sprintf(
				"%s is canon's shim, renamed by lefthook, which never runs it; delete it and add canon to lefthook's configuration (canon hooks install --manager lefthook)",
				rel(p+".old")))
		}
	}
	return out
}

// isHuskyDir reports a husky 9 hooks folder (.husky/_ with its helper).
func isHuskyDir(dir string) bool {
	return filepath.Base(dir) == "_" && isFile(filepath.Join(dir, "h"))
}

func relTo(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return p
	}
	return filepath.ToSlash(r)
}
