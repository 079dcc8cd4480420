package hooks

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Text renderers of canon hooks install, uninstall and status. Their JSON
// is the documented shape, with the hooks folder relative to the root.

// JSON is the result with the hooks folder relative to the root.
func (r *InstallResult) JSON() any {
	out := *r
	out.Dir = relTo(r.root, r.Dir)
	return &out
}

// WriteText says what install or uninstall did, or, where a hook manager
// runs the hooks and was not named, what to add to its configuration.
func (r *InstallResult) WriteText(w io.Writer) error {
	defer r.Merge.writeText(w)
	if r.Configured {
		fmt.Fprintf(w, "%s runs this repository's hooks (%s), so canon wrote no shims; its configuration already calls canon for every hook.\n", r.Manager, r.Config)
		if r.Next != "" {
			fmt.Fprintf(w, "now run: %s\n", r.Next)
		}
		return nil
	}
	if r.Snippet != "" {
		fmt.Fprintf(w, "%s runs this repository's hooks (%s), so canon wrote no shims: %s.\n", r.Manager, r.Config, managerWhy(r.Manager))
		next := r.Next
		if next == "" {
			next = "nothing else"
		}
		_, err := fmt.Fprintf(w, "Add this to %s, then run %s (canon hooks install --manager %s does the first step):\n\n%s",
			managerTarget(r.Manager, r.Config), next, r.Manager, r.Snippet)
		return err
	}
	if len(r.Shims) > 0 || r.Manager == "" {
		fmt.Fprintf(w, "hooks folder %s\n", relTo(r.root, r.Dir))
		for _, a := range r.Shims {
			line := fmt.Sprintf("  %-14s %s", a.Name, a.Did)
			if a.Note != "" {
				line += " (" + a.Note + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
	if r.Manager == Husky && len(r.Edits) > 0 {
		fmt.Fprintln(w, "husky runs this repository's hooks: canon's line is in each script in .husky, first in the post-* ones, where a command that fails cannot skip it, and last in pre-commit, which checks what the commands before it leave staged")
	}
	for _, ed := range r.Edits {
		what := ed.Path
		if ed.Hook != "" {
			what += " " + ed.Hook
		}
		fmt.Fprintf(w, "  %-14s %s\n", ed.Did, what)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if r.Next != "" {
		fmt.Fprintf(w, "now run: %s\n", r.Next)
	}
	return nil
}

func managerWhy(m Manager) string {
	switch m {
	case Lefthook:
		return "lefthook would rename them to *.old and never run them"
	case Husky:
		return "git runs husky's hooks in .husky/_, which husky rewrites on every run"
	}
	return "pre-commit install would keep them as *.legacy, beside its own"
}

func managerTarget(m Manager, config string) string {
	switch m {
	case Husky:
		return "the script in .husky named above each line"
	case Lefthook:
		return config + " (canon's command under each hook it already has)"
	case PreCommit:
		return ".pre-commit-config.yaml"
	}
	return config
}

// JSON is the inspection with the hooks folder and each hook's path
// relative to the root, as install's JSON says them.
func (rep *Inspection) JSON() any {
	out := *rep
	out.Dir = relTo(rep.root, rep.Dir)
	out.Hooks = make([]HookReport, len(rep.Hooks))
	for i, h := range rep.Hooks {
		h.Path = relTo(rep.root, h.Path)
		out.Hooks[i] = h
	}
	if out.Managers == nil {
		out.Managers = []Found{}
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	return &out
}

// WriteText says where the hooks are, what each one runs, whether canon
// will run on the next commit and checkout and through what, and what
// stands in the way.
func (rep *Inspection) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "hooks folder %s", relTo(rep.root, rep.Dir))
	if rep.HooksPath != "" {
		fmt.Fprintf(w, " (core.hooksPath = %s)", rep.HooksPath)
	}
	fmt.Fprintln(w)
	for _, f := range rep.Managers {
		fmt.Fprintf(w, "hook manager %s (%s)\n", f.Manager, f.Config)
	}
	var via []string
	for _, h := range rep.Hooks {
		state, extra := h.Kind, h.Via
		switch {
		case h.State == StateChained:
			state, extra = string(h.State), "runs "+h.Kept+" first"
		case h.Kind == "canon":
			state, extra = string(h.State), ""
		case h.Kind == "script":
			state = string(StateForeign)
		}
		if !h.RunsCanon && h.Why != "" {
			extra = strings.TrimPrefix(extra+"; canon does not run: "+h.Why, "; ")
		}
		if h.Stale {
			extra = strings.TrimPrefix(extra+"; out of date, run canon hooks install", "; ")
		}
		if name, _, _ := strings.Cut(h.Via, " ("); h.RunsCanon && h.Via != "" && !slices.Contains(via, name) {
			via = append(via, name) // "lefthook (lefthook.yml)" is lefthook
		}
		// "husky (.husky/post-commit)" beside the state husky says husky
		// twice: the state names the manager, the rest what of it runs.
		if rest, ok := strings.CutPrefix(extra, state+" ("); ok {
			extra = "(" + rest
		}
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-14s %-10s %s", h.Name, state, extra), " "))
	}
	switch {
	case !rep.CanonOnPath && rep.MergeDriver.Registered:
		// git runs the driver by name too: without canon every merge of
		// a Markdown file .gitattributes sends to it stops as a conflict.
		fmt.Fprintln(w, "canon is not on PATH: the hooks will do nothing, and every merge of a Markdown file stops as a conflict (git cannot run the merge driver), until it is")
	case !rep.CanonOnPath:
		fmt.Fprintln(w, "canon is not on PATH: the hooks will do nothing until it is")
	case rep.Commit && rep.Checkout && slices.ContainsFunc(rep.Hooks, func(h HookReport) bool { return h.Skippable != "" }):
		fmt.Fprintf(w, "canon runs on the next commit and checkout, through %s, unless a command before it fails: see the problems below\n", strings.Join(via, " and "))
	case rep.Commit && rep.Checkout:
		fmt.Fprintf(w, "canon runs on the next commit and checkout, through %s\n", strings.Join(via, " and "))
	default:
		var not []string
		if !rep.Commit {
			not = append(not, "commit")
		}
		if !rep.Checkout {
			not = append(not, "checkout")
		}
		fmt.Fprintf(w, "CANON WILL NOT RUN on the next %s: the index falls behind until a canon command catches up; run %s\n", strings.Join(not, " or "), rep.Fix)
	}
	rep.MergeDriver.writeText(w)
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	return nil
}
