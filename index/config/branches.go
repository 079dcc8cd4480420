package config

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Branches says which refs besides HEAD canon follows for the overlays
// (ADR-0042): what every branch and worktree changes in the backlog.
type Branches struct {
	// Include are patterns of ref names, * matching any run of characters
	// slashes included: refs/heads/*, refs/remotes/*, and worktrees/*/HEAD
	// for a linked worktree's detached HEAD.
	Include []string `json:"include"`
	// Exclude are patterns of refs left out even when included.
	Exclude []string `json:"exclude"`
	// Max is how many refs are followed at most (the first by name).
	Max int `json:"max"`
}

// MaxRefs is the most refs the overlays may follow.
const MaxRefs = 200

// DefaultBranches follows local and remote-tracking branches and linked
// worktrees.
func DefaultBranches() Branches {
	return Branches{Include: []string{"refs/heads/*", "refs/remotes/*", "worktrees/*/HEAD"}, Exclude: []string{}, Max: MaxRefs}
}

type branchesFile struct {
	Include *list `yaml:"include"`
	Exclude *list `yaml:"exclude"`
	Max     *int  `yaml:"max"`
}

func (b *Branches) merge(n *yaml.Node) error {
	var f branchesFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	if f.Include != nil {
		b.Include = *f.Include
	}
	if f.Exclude != nil {
		b.Exclude = *f.Exclude
	}
	if f.Max != nil {
		if *f.Max < 0 || *f.Max > MaxRefs {
			return fmt.Errorf("branches.max must be between 0 and %d", MaxRefs)
		}
		b.Max = *f.Max
	}
	for _, p := range append(append([]string{}, b.Include...), b.Exclude...) {
		if strings.TrimSpace(p) == "" {
			return fmt.Errorf("branches: an empty pattern; write a ref pattern such as refs/heads/*")
		}
		if err := checkPrintable("branches", p); err != nil {
			return err
		}
	}
	return nil
}

// Follows reports whether the ref name is followed: matched by an Include
// pattern and by no Exclude pattern.
func (b Branches) Follows(name string) bool {
	in := false
	for _, p := range b.Include {
		if globMatch(p, name) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for _, p := range b.Exclude {
		if globMatch(p, name) {
			return false
		}
	}
	return true
}

// globMatch matches name against a pattern whose * matches any run of
// characters, slashes included; everything else matches itself.
func globMatch(pattern, name string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return pattern == name
	}
	if !strings.HasPrefix(name, pattern[:star]) {
		return false
	}
	rest := pattern[star+1:]
	for i := star; i <= len(name); i++ {
		if globMatch(rest, name[i:]) {
			return true
		}
	}
	return false
}
