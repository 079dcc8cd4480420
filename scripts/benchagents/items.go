package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// The items mode (issue 47, item 4): agents act on the backlog through
// canon alone. Each round every agent first reads canon ready (all of
// them before anyone claims, as agents started together do), then, in a
// random order, claims the first story it was offered that is free (a
// claim another agent made first is refused, and it tries the next one),
// logs a line in it, closes it, and creates a new story under the shared
// feature; each call with --commit. The branches are merged into main as
// in the other modes. It counts duplicate ids, merges that needed a human,
// lines lost, claims refused, and stories taken twice (claimed by two
// agents).

// seedStories is how many ready stories the items mode starts with: more
// than one round takes.
func seedStories() map[string]string {
	out := map[string]string{}
	for i := 1; i <= 2**agents; i++ {
		id := fmt.Sprintf("KB-USR-%04d", i+1)
		out[fmt.Sprintf("backlog/stories/%s_seed-%d.md", id, i)] = fmt.Sprintf("---\nid: %s\ntype: story\nstate: Ready\ntitle: Seed story %d\nparent: KB-FTR-0001\n---\n# Seed story %d\n", id, i, i)
	}
	return out
}

// offer is a story canon ready offered an agent.
type offer struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Assignee string `json:"assignee"`
}

// itemsRound is one round of the items mode.
func (r *replay) itemsRound(round int) error {
	offers := make([][]offer, len(r.agents))
	for _, i := range r.rng.Perm(len(r.agents)) {
		a := r.agents[i]
		if _, err := sh(a.dir, "git", "merge", "-q", "--ff-only", "main"); err != nil {
			return err
		}
		out, err := canonOut(a.dir, "ready", "--json", "--kind", "story", "--all")
		if err != nil {
			return err
		}
		var ready struct {
			Ready []offer `json:"ready"`
		}
		if err := json.Unmarshal([]byte(out), &ready); err != nil {
			return fmt.Errorf("canon ready --json: %w: %s", err, out)
		}
		offers[i] = ready.Ready
	}
	for _, i := range r.rng.Perm(len(r.agents)) {
		if err := r.itemsStep(r.agents[i], round, offers[i]); err != nil {
			return fmt.Errorf("agent %d: %w", i, err)
		}
	}
	return nil
}

// itemsStep is one agent's turn: claim, log, done, new.
func (r *replay) itemsStep(a *agent, round int, offers []offer) error {
	who := fmt.Sprintf("agent-%d", a.n)
	for _, o := range offers {
		if o.Assignee != "" || o.Kind != "story" {
			continue // taken here (in progress under a name)
		}
		out, err := canonOut(a.dir, "claim", o.ID, "--as", who, "--commit")
		if err != nil {
			if strings.Contains(out, " is taken on ") || strings.Contains(out, " is taken:") || strings.Contains(out, " is done already") {
				r.refused++
				if r.refusal == "" {
					r.refusal = firstLine(out)
				}
				continue
			}
			return err
		}
		r.claims[o.ID] = append(r.claims[o.ID], who)
		out, err = canonOut(a.dir, "log", o.ID, fmt.Sprintf("round %d: worked on %s", round, o.ID), "--as", who, "--commit", "--json")
		if err != nil {
			return err
		}
		var logged struct {
			Logged string `json:"logged"`
		}
		if err := json.Unmarshal([]byte(out), &logged); err != nil || logged.Logged == "" {
			return fmt.Errorf("canon log --json: %w: %s", err, out)
		}
		if _, err := canonOut(a.dir, "done", o.ID, "--commit"); err != nil {
			return err
		}
		r.want = append(r.want, line{o.Path, "assignee: " + who}, line{o.Path, "state: Done"}, line{o.Path, logged.Logged})
		break
	}
	out, err := canonOut(a.dir, "new", "story", fmt.Sprintf("Agent %d, round %d", a.n, round), "--parent", "KB-FTR-0001", "--commit", "--json")
	if err != nil {
		return err
	}
	var made struct {
		Item struct{ ID, Path string } `json:"item"`
	}
	if err := json.Unmarshal([]byte(out), &made); err != nil || made.Item.ID == "" {
		return fmt.Errorf("canon new --json: %w: %s", err, out)
	}
	r.want = append(r.want, line{made.Item.Path, "id: " + made.Item.ID}, line{made.Item.Path, "parent: KB-FTR-0001"})
	return nil
}

// takenTwice counts the stories two agents claimed.
func (r *replay) takenTwice() int {
	keys := make([]string, 0, len(r.claims))
	for k := range r.claims {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		if len(r.claims[k]) > 1 {
			n++
			if *verbose {
				fmt.Printf("taken twice: %s by %s\n", k, strings.Join(r.claims[k], ", "))
			}
		}
	}
	return n
}

// canonOut runs canon in dir: its standard output, or, when it fails,
// its standard error (the refusal) with the error.
func canonOut(dir string, args ...string) (string, error) {
	cmd := exec.Command(binPath, args...)
	cmd.Dir, cmd.Env = dir, environ()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return stderr.String(), fmt.Errorf("canon %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}
