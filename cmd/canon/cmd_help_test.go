package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// canon help --json lists every command, and every command but those that
// print no answer of their own (hook: git's entry point; mcp: JSON-RPC
// already) takes --json, by its name or an alias (watch's --json-events).
func TestHelpJSONListsEveryCommandWithJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"canon", "help", "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("canon help --json: exit %d: %s", code, stderr.String())
	}
	var h helpJSON
	if err := json.Unmarshal(stdout.Bytes(), &h); err != nil {
		t.Fatalf("canon help --json printed no JSON: %v\n%s", err, stdout.String())
	}
	without := map[string]bool{"hook": true, "mcp": true}
	listed := map[string]bool{}
	var walk func(prefix string, cmds []commandJSON)
	walk = func(prefix string, cmds []commandJSON) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			listed[name] = true
			if len(c.Commands) > 0 {
				walk(name, c.Commands)
				continue
			}
			hasJSON := false
			for _, f := range c.Flags {
				hasJSON = hasJSON || f.Name == "json" || slices.Contains(f.Aliases, "json")
			}
			if hasJSON == without[name] {
				t.Errorf("canon %s: --json %v, want %v", name, hasJSON, !without[name])
			}
		}
	}
	walk("", h.Commands)
	for _, c := range newApp(&env{}).Commands {
		if c.Name != "help" && !listed[c.Name] {
			t.Errorf("canon %s is not in canon help --json", c.Name)
		}
	}
	for _, name := range []string{"help", "workset new", "id next", "hooks install", "graph neighbors"} {
		if !listed[name] {
			t.Errorf("canon %s is not in canon help --json", name)
		}
	}
}
