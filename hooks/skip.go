package hooks

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/safepath"
)

// Where a hook manager runs canon among the repository's own commands, one
// of those that fails first can stop the manager before it reaches canon:
// husky's scripts run with sh -e, lefthook's piped hooks stop at the first
// failure, and so does the pre-commit framework with fail_fast. In
// pre-commit that refuses the commit anyway; in a post-* hook git goes on
// and the index falls behind without a word. These functions find such a
// command for a post-* hook and say how to put canon first (ADR-0038).

// huskySkips says which command of a husky script can stop canon's line.
func huskySkips(root, script, name string) string {
	data, err := safepath.ReadFile(script, safepath.ConfigLimit, root)
	if err != nil {
		return ""
	}
	cmd, line, skip := huskySkipper(data, name)
	if !skip {
		return ""
	}
	return fmt.Sprintf("%s runs `%s` (line %d) before canon, and husky stops the script at the first command that fails; "+
		"put canon's line first (canon hooks install moves it)", relTo(root, script), cmd, line)
}

// lefthookSkips says which of a piped lefthook hook's commands runs before
// canon's: lefthook stops at the first that fails. Without piped, lefthook
// runs every command (in turn, or all at once with parallel), so none can
// keep canon from running.
func lefthookSkips(root, file, name string) string {
	if mayRefuse(name) || (!strings.HasSuffix(file, ".yml") && !strings.HasSuffix(file, ".yaml")) {
		return ""
	}
	data, err := safepath.ReadFile(filepath.Join(root, file), safepath.ConfigLimit, root)
	if err != nil {
		return ""
	}
	var doc map[string]struct {
		Piped    bool                      `yaml:"piped"`
		Commands map[string]map[string]any `yaml:"commands"`
		Scripts  map[string]map[string]any `yaml:"scripts"`
		Jobs     []map[string]any          `yaml:"jobs"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return ""
	}
	h, ok := doc[name]
	if !ok || !h.Piped {
		return ""
	}
	// jobs run in their order.
	for i, j := range h.Jobs {
		if !mentionsCanon(j) {
			continue
		}
		if i == 0 {
			return ""
		}
		first, _ := h.Jobs[0]["name"].(string)
		if first == "" {
			first, _ = h.Jobs[0]["run"].(string)
		}
		return fmt.Sprintf("%s runs %s's jobs piped, stopping at the first that fails, and `%s` runs before canon; move canon's job first", file, name, first)
	}
	// commands and scripts run by priority (0, or none, is last), then by name.
	type step struct {
		name     string
		priority int
		canon    bool
	}
	var steps []step
	for _, group := range []map[string]map[string]any{h.Commands, h.Scripts} {
		for n, c := range group {
			p, _ := c["priority"].(int)
			if p <= 0 {
				p = int(^uint(0) >> 1)
			}
			steps = append(steps, step{n, p, mentionsCanon(c)})
		}
	}
	slices.SortFunc(steps, func(a, b step) int {
		return cmp.Or(cmp.Compare(a.priority, b.priority), strings.Compare(a.name, b.name))
	})
	if len(steps) == 0 || steps[0].canon || !slices.ContainsFunc(steps, func(s step) bool { return s.canon }) {
		return ""
	}
	return fmt.Sprintf("%s runs %s's commands piped, stopping at the first that fails, and `%s` runs before canon (lefthook orders them by priority, then by name); give canon's command priority: 1",
		file, name, steps[0].name)
}

// preCommitSkips says which hook of the pre-commit framework, at a post-*
// stage, can stop canon's under fail_fast. A hook runs there only with
// always_run (a post-* stage has no files to check), so only those count.
func preCommitSkips(root, name string) string {
	if mayRefuse(name) {
		return ""
	}
	cfg, ok := readPreCommitConfig(root)
	if !ok {
		return ""
	}
	var before *preCommitHook
	for _, r := range cfg.Repos {
		for i, h := range r.Hooks {
			if stages, ours := cfg.canonStages(r.Repo, h); ours {
				if !atStage(stages, name) {
					continue
				}
				if before == nil {
					return ""
				}
				why := "with fail_fast: true"
				if !cfg.FailFast {
					why = "fail_fast: true on " + before.ID
				}
				return fmt.Sprintf("%s runs %s (always_run) before canon at %s, %s, so when it fails canon does not run; move canon's repository first in repos",
					preCommitConfig, before.ID, name, why)
			}
			stages := h.Stages
			if len(stages) == 0 {
				stages = cfg.DefaultStages
			}
			if before == nil && h.AlwaysRun && (cfg.FailFast || h.FailFast) && atStage(stages, name) {
				before = &r.Hooks[i]
			}
		}
	}
	return ""
}
