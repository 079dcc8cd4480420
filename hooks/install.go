package hooks

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"text/template"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/safepath"
)

// Names are the hooks canon installs, in the order it reports them.
var Names = []string{"pre-commit", "post-commit", "post-checkout", "post-merge", "post-rewrite", "pre-push"}

// mayRefuse says canon's hook called name may fail the git command:
// pre-commit on validation errors, pre-push when ids.block_push says so.
// A command before canon's that fails there refuses it anyway, so canon's
// line goes last and nothing is said to skip it.
func mayRefuse(name string) bool { return name == "pre-commit" || name == "pre-push" }

// Marker is the line that makes a hook file canon's own.
const Marker = "canon-managed hook: edit the hook kept next to it, not this file"

// origSuffix names the hook that was there before canon, kept beside it.
const origSuffix = ".canon-orig"

// rename and writeFile move and write hook files: os.Rename and
// safepath.WriteFile, replaced in tests to make them fail.
var (
	rename    = os.Rename
	writeFile = safepath.WriteFile
)

//go:embed shim.sh.tmpl
var shimText string

// shimTmpl is parsed at first use: every canon process, hooks included,
// would otherwise parse it at start-up (ADR-0021).
var shimTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("shim").Parse(shimText))
})

// Shim renders the shim for one hook.
func Shim(name string, chained bool) []byte {
	// pre-commit and pre-push may refuse (pre-push only when configured):
	// their status is canon's. pre-push reads git's input, which a chained
	// hook must read too.
	data := struct {
		Marker, Name, Original, Exit string
		Blocking, Stdin              bool
	}{Marker: Marker, Name: name, Exit: "0", Blocking: mayRefuse(name), Stdin: name == "pre-push"}
	if chained {
		data.Original = name + origSuffix
		if !data.Blocking {
			data.Exit = "$status"
		}
	}
	var b bytes.Buffer
	if err := shimTmpl().Execute(&b, data); err != nil {
		panic(err) // the template is ours and fixed
	}
	return b.Bytes()
}

// Location is where the hooks of a repository live and why.
type Location struct {
	Dir string // absolute folder
	// HooksPath is core.hooksPath as set ("" when unset), and Origin the
	// config file it comes from.
	HooksPath, Origin string
	Local             bool // set in the repository's own config
}

// Locate asks git where hooks live (git rev-parse --git-path hooks), so
// core.hooksPath and linked worktrees are handled as git handles them.
func Locate(ctx context.Context, r *gitsync.Repo) (*Location, error) {
	out, err := r.Git(ctx, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return nil, err
	}
	loc := &Location{Dir: filepath.Clean(strings.TrimSpace(string(out)))}
	if out, err := r.Git(ctx, "config", "--show-origin", "--get", "core.hooksPath"); err == nil {
		origin, value, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
		loc.HooksPath, loc.Origin = value, strings.TrimPrefix(origin, "file:")
		local, lerr := r.Git(ctx, "config", "--local", "--get", "core.hooksPath")
		loc.Local = lerr == nil && strings.TrimSpace(string(local)) == value
	}
	return loc, nil
}

// State of one hook file.
type State string

const (
	StateMissing State = "missing" // no hook file
	StateCanon   State = "canon"   // canon's shim
	StateChained State = "chained" // canon's shim, running the earlier hook first
	StateForeign State = "foreign" // someone else's hook; canon is not in it
)

// HookStatus is one hook's state.
type HookStatus struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	State  State  `json:"state"`
	Kept   string `json:"kept,omitempty"` // the earlier hook canon chains
	Stale  bool   `json:"stale"`          // canon's shim, but not the current text
	Runs   bool   `json:"executable"`
	Canons bool   `json:"mentions_canon"` // a foreign hook that calls canon itself
}

// Status reports every hook canon cares about in dir.
func Status(root, dir string) []HookStatus {
	out := make([]HookStatus, 0, len(Names))
	for _, name := range Names {
		out = append(out, statusOf(root, dir, name))
	}
	return out
}

func statusOf(root, dir, name string) HookStatus {
	p := filepath.Join(dir, name)
	hs := HookStatus{Name: name, Path: p, State: StateMissing}
	data, err := readHook(root, dir, p)
	if err != nil {
		return hs
	}
	if info, err := os.Stat(p); err == nil {
		hs.Runs = info.Mode()&0o111 != 0
	}
	if !bytes.Contains(data, []byte(Marker)) {
		hs.State = StateForeign
		hs.Canons = bytes.Contains(data, []byte("canon hook"))
		return hs
	}
	hs.State = StateCanon
	if _, err := os.Stat(p + origSuffix); err == nil {
		hs.State, hs.Kept = StateChained, p+origSuffix
	}
	hs.Stale = !bytes.Equal(data, Shim(name, hs.State == StateChained))
	return hs
}

// Action is what install or uninstall did to one hook.
type Action struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Did  string `json:"did"` // installed, chained, updated, unchanged, restored, removed, skipped
	Note string `json:"note,omitempty"`
}

// ErrHooksPath says core.hooksPath points somewhere canon must not write
// without being told.
var ErrHooksPath = errors.New("core.hooksPath is set")

// HooksPathError explains what to do about core.hooksPath.
type HooksPathError struct {
	Loc *Location
}

func (e *HooksPathError) Error() string {
	if isHuskyDir(e.Loc.Dir) {
		return fmt.Sprintf("core.hooksPath is set to %s, husky's folder, which husky rewrites on its next run; "+
			"run canon hooks install --manager husky to add canon to the scripts in .husky instead", e.Loc.HooksPath)
	}
	if !e.Loc.Local {
		return fmt.Sprintf("core.hooksPath is set to %s in %s, outside this repository's config; canon never writes to a global hooks folder. "+
			"Add `canon hook <name> \"$@\"` to the hooks there (canon's docs/hook-managers.md shows the lines), or run canon hooks install --hooks-path .githooks to use a folder in this repository",
			e.Loc.HooksPath, e.Loc.Origin)
	}
	return fmt.Sprintf("core.hooksPath is set to %s, which another tool may manage (husky, a committed .githooks); "+
		"run canon hooks install --hooks-path %s to install canon's shims there, chaining the hooks it holds, or add `canon hook <name> \"$@\"` to them yourself",
		e.Loc.HooksPath, e.Loc.HooksPath)
}

func (e *HooksPathError) Unwrap() error { return ErrHooksPath }

// InstallOptions shape Install.
type InstallOptions struct {
	// HooksPath is a repo-relative folder to install into (and to make
	// core.hooksPath); "" means wherever git looks now.
	HooksPath string
	// Force replaces a kept earlier hook that canon would otherwise refuse
	// to overwrite.
	Force bool
	// Manager is lefthook, husky or pre-commit to add canon to that
	// manager's configuration, "git" for canon's own shims whatever manages
	// the hooks, and "" to write shims unless a manager is found.
	Manager Manager
}

// InstallResult is what Setup did, or what it asks the user to do.
type InstallResult struct {
	Dir     string   `json:"hooks_dir"`
	Shims   []Action `json:"hooks"`             // shims written, or removed for a manager
	Manager Manager  `json:"manager,omitempty"` // the hook manager canon went into, or found
	Config  string   `json:"config,omitempty"`  // that manager's configuration
	Edits   []Edit   `json:"edits,omitempty"`   // what canon changed in it
	// Snippet is set when a manager was found and not named: canon wrote
	// nothing, and this is what to add to Config.
	Snippet string `json:"snippet,omitempty"`
	// Configured is set when a manager was found and not named, and its
	// configuration already calls canon for every hook: no snippet.
	Configured bool     `json:"already_configured,omitempty"`
	Next       string   `json:"next,omitempty"` // the command that makes the manager pick it up
	Notes      []string `json:"notes"`
	// Merge is the merge driver's registration and .gitattributes block,
	// installed whatever runs the hooks (mergedriver.go).
	Merge *MergeSetup `json:"merge_driver,omitempty"`

	root string
}

// Setup installs canon where it will run: canon's shims in git's hooks
// folder, or, where a hook manager owns that folder, an entry in the
// manager's configuration. A manager found but not named gets no change:
// Setup returns the snippet to add.
func Setup(ctx context.Context, r *gitsync.Repo, opt InstallOptions) (*InstallResult, error) {
	loc, err := Locate(ctx, r)
	if err != nil {
		return nil, err
	}
	res := &InstallResult{Dir: loc.Dir, Notes: []string{}, root: r.Root}
	if _, err := exec.LookPath("canon"); err != nil {
		// the shims and the merge driver call canon by name: say so now,
		// not at the first merge that stops as a conflict
		res.Notes = append(res.Notes, "canon is not on PATH: the hooks will do nothing, and every merge of a Markdown file stops as a conflict (git cannot run the merge driver), until it is; put the folder canon is in on PATH")
	}
	if res.Merge, err = InstallMergeDriver(ctx, r); err != nil {
		return nil, err
	}
	if opt.HooksPath != "" {
		if dir, err := insideRepo(r.Root, opt.HooksPath); err == nil && isHuskyDir(dir) {
			return nil, fmt.Errorf("%s is husky's folder, which husky rewrites on its next run (npm install runs it); run canon hooks install --manager husky to add canon to the scripts in .husky instead", opt.HooksPath)
		}
	}
	m := opt.Manager
	if m == "" && opt.HooksPath == "" {
		if found := Detect(r.Root, loc.Dir); len(found) > 0 {
			f := found[0]
			for _, x := range found {
				if x.OwnsHooks {
					f = x
					break
				}
			}
			res.Manager, res.Config, res.Next = f.Manager, f.Config, nextStep(f.Manager, loc)
			switch {
			case f.Manager == Husky:
				// husky's configuration is its scripts: a line in each is
				// what a shim is elsewhere, and the same edit as --manager
				// husky (which also moves canon's line from behind a
				// command that can fail). Printing it for the user to
				// add, while hooks status said to run install, was a
				// circle.
				m = Husky
			case managerCallsCanon(r.Root, f.Manager):
				// Added before (--manager, or by hand): what is left is the
				// manager's own step, not the lines again.
				res.Configured = true
				return res, nil
			default:
				res.Snippet = Snippet(f.Manager)
				return res, nil
			}
		}
	}
	if m == "" || m == "git" {
		dir, acts, err := Install(ctx, r, opt)
		res.Dir, res.Shims = dir, acts
		if cfg := husky4Config(r.Root); cfg != "" && err == nil {
			res.Notes = append(res.Notes, cfg+" configures husky 4, which writes its hooks at npm install only where git's hooks folder has none: it would skip the hooks canon wrote. To run both: canon hooks uninstall, then npm install (husky writes its hooks), then canon hooks install (canon's shims run husky's first)")
		}
		return res, err
	}
	// Into the manager's configuration; canon's own shims would be
	// overwritten (husky), renamed and never run (lefthook) or run twice
	// (pre-commit keeps them as *.legacy), so they go.
	res.Manager = m
	if res.Edits, err = AddToManager(r.Root, m); err != nil {
		return res, err
	}
	if len(res.Edits) > 0 {
		res.Config = res.Edits[0].Path
	}
	res.Shims, err = removeShims(r.Root, loc.Dir)
	if err != nil {
		return res, err
	}
	// Shims left in the folder git used before core.hooksPath pointed
	// elsewhere (canon installed before husky) never run: they go too.
	if out, gerr := r.Git(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir"); gerr == nil {
		if def := filepath.Join(strings.TrimSpace(string(out)), "hooks"); !samePath(def, loc.Dir) {
			acts, err := removeShims(r.Root, def)
			res.Shims = append(res.Shims, acts...)
			if err != nil {
				return res, err
			}
		}
	}
	for _, name := range Names {
		old := filepath.Join(loc.Dir, name+".old")
		if kindOfFile(r.Root, old, loc.Dir) == "canon" {
			if err := os.Remove(old); err != nil {
				return res, err
			}
			res.Shims = append(res.Shims, Action{Name: name, Path: old, Did: "removed", Note: "canon's shim, renamed by lefthook"})
		}
		if orig := filepath.Join(loc.Dir, name+origSuffix); kindOfFile(r.Root, filepath.Join(loc.Dir, name), loc.Dir) != "canon" {
			if _, err := os.Lstat(orig); err == nil {
				res.Notes = append(res.Notes, fmt.Sprintf("%s is the hook canon had chained; git no longer runs it: add what it does to %s's configuration, then delete it", relTo(r.Root, orig), m))
			}
		}
	}
	res.Next = nextStep(m, loc)
	return res, nil
}

// nextStep is the command that makes a manager install its hooks from the
// configuration canon edited ("" when nothing is needed).
func nextStep(m Manager, loc *Location) string {
	switch m {
	case Lefthook:
		return "lefthook install"
	case Husky:
		if isHuskyDir(loc.Dir) {
			return ""
		}
		return "npx husky"
	case PreCommit:
		return "pre-commit install"
	}
	return ""
}

// removeShims takes canon's shims out of dir, putting back the hooks they
// chained; the actions are what it changed.
func removeShims(root, dir string) ([]Action, error) {
	var acts []Action
	for _, name := range Names {
		a, err := takeOut(root, dir, name)
		if err != nil {
			return acts, err
		}
		if a.Did != "skipped" {
			acts = append(acts, a)
		}
	}
	return acts, nil
}

// takeOut takes canon's shim for the hook name out of dir: the hook it
// chained is put back, a shim alone is removed, any other hook is left
// alone (skipped).
func takeOut(root, dir, name string) (Action, error) {
	p := filepath.Join(dir, name)
	a := Action{Name: name, Path: p, Did: "skipped"}
	switch statusOf(root, dir, name).State {
	case StateChained:
		if err := rename(p+origSuffix, p); err != nil {
			return a, fmt.Errorf("restore the earlier %s hook: %w", name, err)
		}
		a.Did = "restored"
	case StateCanon:
		if err := os.Remove(p); err != nil {
			return a, err
		}
		a.Did = "removed"
	case StateForeign:
		a.Note = "not canon's hook; left alone"
	}
	return a, nil
}

// Install writes canon's shims. It is idempotent: a second run changes
// nothing. A hook that was there is kept beside the shim and runs first.
func Install(ctx context.Context, r *gitsync.Repo, opt InstallOptions) (string, []Action, error) {
	loc, err := Locate(ctx, r)
	if err != nil {
		return "", nil, err
	}
	dir := loc.Dir
	if opt.HooksPath != "" {
		dir, err = insideRepo(r.Root, opt.HooksPath)
		if err != nil {
			return "", nil, err
		}
	} else if loc.HooksPath != "" && !(loc.Local && safepath.Within(r.GitDir, loc.Dir)) {
		return "", nil, &HooksPathError{Loc: loc}
	}
	// The hooks folder git uses lies in the repository or its git folder
	// (a linked worktree's common folder may be elsewhere); never through a
	// link that leads out.
	if err := safepath.MkdirAll(dir, 0o755, r.Root, r.GitDir, r.CommonDir); err != nil {
		return "", nil, fmt.Errorf("create hooks folder: %w", err)
	}
	safepath.StaleIn(dir, dir) // a shim write killed half way
	// Every hook is looked at before any is written or git's
	// configuration changed: all of them or none (a link in the place of
	// the fourth left three shims written and core.hooksPath set).
	for _, name := range Names {
		if err := refusal(statusOf(r.Root, dir, name), dir, opt.Force); err != nil {
			return dir, nil, err
		}
	}
	if opt.HooksPath != "" && !samePath(loc.Dir, dir) {
		rel, _ := filepath.Rel(r.Root, dir)
		if _, err := r.Git(ctx, "config", "--local", "--end-of-options", "core.hooksPath", filepath.ToSlash(rel)); err != nil {
			return "", nil, fmt.Errorf("set core.hooksPath: %w", err)
		}
	}
	var acts []Action
	for _, name := range Names {
		a, err := installOne(r.Root, dir, name, opt.Force)
		if err != nil {
			return dir, acts, err
		}
		acts = append(acts, a)
	}
	return dir, acts, nil
}

// refusal says why installOne would refuse a hook, before anything is
// written: a file canon would write that it may not (a link), or, for a
// hook that is not canon's, the place it would be kept already taken
// (without force).
func refusal(st HookStatus, dir string, force bool) error {
	switch st.State {
	case StateForeign:
		kept := st.Path + origSuffix
		if _, err := os.Lstat(kept); err == nil && !force {
			return fmt.Errorf("%s exists next to a hook that is not canon's; canon will not overwrite it: move one of them away, or pass --force to replace %s", kept, kept)
		}
		return nil
	case StateCanon, StateChained:
		if !st.Stale && st.Runs {
			return nil // unchanged
		}
	}
	return safepath.Writable(st.Path, dir)
}

func installOne(root, dir, name string, force bool) (Action, error) {
	p := filepath.Join(dir, name)
	a := Action{Name: name, Path: p}
	st := statusOf(root, dir, name)
	if err := refusal(st, dir, force); err != nil {
		return a, err
	}
	switch st.State {
	case StateMissing:
		a.Did = "installed"
		return a, safepath.WriteFile(p, Shim(name, false), 0o755, dir)
	case StateCanon, StateChained:
		want := Shim(name, st.State == StateChained)
		if !st.Stale && st.Runs {
			a.Did = "unchanged"
			return a, nil
		}
		a.Did = "updated"
		return a, safepath.WriteFile(p, want, 0o755, dir)
	}
	// A foreign hook: keep it beside the shim and chain it.
	kept := p + origSuffix
	if st.Canons {
		a.Note = "it already calls canon itself; canon's shim will call canon a second time unless you remove that line"
	}
	if !st.Runs {
		a.Note = "it was not executable, so git did not run it; it is kept as it was and still will not run"
	}
	if err := rename(p, kept); err != nil {
		return a, fmt.Errorf("keep the existing %s hook: %w", name, err)
	}
	if err := writeFile(p, Shim(name, true), 0o755, dir); err != nil {
		// Put it back: nothing the user wrote is lost, or say where it is.
		if rerr := rename(kept, p); rerr != nil {
			return a, fmt.Errorf("write canon's %s hook: %w; your own hook is kept as %s and could not be put back (%w): rename it to %s", name, err, kept, rerr, p)
		}
		return a, err
	}
	a.Did = "chained"
	return a, nil
}

// Uninstall removes canon's shims and puts back the hooks they chained,
// byte for byte. Foreign hooks are left alone.
func Uninstall(ctx context.Context, r *gitsync.Repo, hooksPath string) (string, []Action, error) {
	dir := ""
	if hooksPath != "" {
		d, err := insideRepo(r.Root, hooksPath)
		if err != nil {
			return "", nil, err
		}
		dir = d
	} else {
		loc, err := Locate(ctx, r)
		if err != nil {
			return "", nil, err
		}
		dir = loc.Dir
	}
	if err := safepath.Inside(dir, r.Root, r.GitDir, r.CommonDir); err != nil {
		return "", nil, err
	}
	var acts []Action
	for _, name := range Names {
		a, err := takeOut(r.Root, dir, name)
		if err != nil {
			return dir, acts, err
		}
		acts = append(acts, a)
	}
	return dir, acts, nil
}

func insideRepo(root, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(root, p)
	}
	abs = filepath.Clean(abs)
	if !safepath.Within(root, abs) {
		return "", fmt.Errorf("--hooks-path %s is outside the repository; canon only installs hooks inside it", p)
	}
	// The text is inside; a link on the way may still lead out.
	if err := safepath.Inside(abs, root); err != nil {
		return "", fmt.Errorf("--hooks-path %s: %w", p, err)
	}
	return abs, nil
}

// readHook reads a hook file or a hook manager's script: bounded, a
// regular file, inside the hooks folder or the repository (a hook may be
// a link to a script the repository holds, never one out of both).
func readHook(root, dir, p string) ([]byte, error) {
	return safepath.ReadFile(p, safepath.ConfigLimit, dir, root)
}

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// Teardown undoes Setup: canon's shims go (the hooks they chained come
// back) and canon's entries leave every hook manager's configuration,
// exactly as added.
func Teardown(ctx context.Context, r *gitsync.Repo, hooksPath string) (*InstallResult, error) {
	dir, acts, err := Uninstall(ctx, r, hooksPath)
	res := &InstallResult{Dir: dir, Shims: acts, Notes: []string{}, root: r.Root}
	if err != nil {
		return res, err
	}
	if res.Merge, err = UninstallMergeDriver(ctx, r); err != nil {
		return res, err
	}
	for _, f := range Detect(r.Root, dir) {
		edits, err := RemoveFromManager(r.Root, f.Manager)
		if err != nil {
			return res, err
		}
		if len(edits) > 0 {
			res.Edits = append(res.Edits, edits...)
			res.Next = nextUninstall(f.Manager, edits)
		}
	}
	return res, nil
}

// nextUninstall is the manager's command that follows canon's removal: its
// own uninstall when canon deleted the configuration it had created (the
// manager's hooks would fail without one), a re-sync otherwise.
func nextUninstall(m Manager, edits []Edit) string {
	deleted := false
	for _, e := range edits {
		deleted = deleted || e.Did == "deleted"
	}
	switch {
	case m == Lefthook && deleted:
		return "lefthook uninstall"
	case m == Lefthook:
		return "lefthook install"
	case m == PreCommit && deleted:
		return "pre-commit uninstall"
	}
	return ""
}

// husky4Config names the file that configures husky 4 (hooks written into
// git's hooks folder at npm install, skipping the files already there):
// package.json's "husky": {"hooks": ...}, or a .huskyrc. "" when none.
func husky4Config(root string) string {
	for _, f := range []string{".huskyrc", ".huskyrc.json", ".huskyrc.js", "husky.config.js"} {
		if isFile(filepath.Join(root, f)) {
			return f
		}
	}
	data, err := safepath.ReadFile(filepath.Join(root, "package.json"), safepath.ConfigLimit, root)
	if err != nil {
		return ""
	}
	var pkg struct {
		Husky struct {
			Hooks map[string]any `json:"hooks"`
		} `json:"husky"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Husky.Hooks) == 0 {
		return ""
	}
	return "package.json"
}
