package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/safepath"
)

// Edit is one change canon made (or would make) to a hook manager's
// configuration.
type Edit struct {
	Hook string `json:"hook,omitempty"` // the git hook the change is for ("" for the whole file)
	Path string `json:"path"`           // repo-relative
	Did  string `json:"did"`            // created, added, unchanged, removed, deleted
}

// ErrByHand says a configuration has a shape canon will not edit.
var ErrByHand = errors.New("edit by hand")

// AddToManager puts canon into m's configuration with the smallest edit
// that works: a missing file gets the whole snippet; an existing one gets
// canon's entries added where the hooks are, and nothing else touched.
func AddToManager(root string, m Manager) ([]Edit, error) {
	switch m {
	case Lefthook:
		return addLefthook(root)
	case Husky:
		return addHusky(root)
	case PreCommit:
		return addPreCommit(root)
	}
	return nil, fmt.Errorf("no hook manager %q", m)
}

// RemoveFromManager takes out exactly what AddToManager put in.
func RemoveFromManager(root string, m Manager) ([]Edit, error) {
	switch m {
	case Lefthook:
		return removeLefthook(root)
	case Husky:
		return removeHusky(root)
	case PreCommit:
		return removePreCommit(root)
	}
	return nil, fmt.Errorf("no hook manager %q", m)
}

// writeKeepingMode writes a configuration file atomically, keeping its mode.
func writeKeepingMode(root, p string, data []byte, mode os.FileMode) error {
	if info, err := os.Stat(p); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// A manager's configuration is at the repository root or under it;
	// a link on the way (a committed .husky linked elsewhere) is refused.
	if err := safepath.Writable(p, root); err != nil {
		return err
	}
	return safepath.WriteFile(p, data, mode, root)
}

// --- husky: one line in each .husky/NAME script ---

// huskyLines are the snippet's lines, by hook.
func huskyLines() map[string]string {
	out := map[string]string{}
	lines := strings.Split(huskySnippet, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if name, ok := strings.CutPrefix(lines[i], "# .husky/"); ok {
			out[name] = lines[i+1]
		}
	}
	return out
}

func addHusky(root string) ([]Edit, error) {
	lines := huskyLines()
	var edits []Edit
	for _, name := range Names {
		rel := ".husky/" + name
		p := filepath.Join(root, ".husky", name)
		data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if err := writeKeepingMode(root, p, []byte(lines[name]+"\n"), 0o755); err != nil {
				return edits, err
			}
			edits = append(edits, Edit{Hook: name, Path: rel, Did: "created"})
			continue
		case err != nil:
			return edits, err
		}
		did := "added"
		if bytes.Contains(data, []byte("canon hook")) {
			// canon's own line after a command that can fail goes first;
			// a line the user wrote is theirs (hooks status warns).
			own := []byte(lines[name] + "\n")
			if _, _, skip := huskySkipper(data, name); !skip || !bytes.Contains(data, own) {
				edits = append(edits, Edit{Hook: name, Path: rel, Did: "unchanged"})
				continue
			}
			data, did = bytes.Replace(data, own, nil, 1), "moved"
		}
		data = placeHuskyLine(data, name, lines[name])
		if err := writeKeepingMode(root, p, data, 0o755); err != nil {
			return edits, err
		}
		edits = append(edits, Edit{Hook: name, Path: rel, Did: did})
	}
	return edits, nil
}

// placeHuskyLine puts canon's line into a husky script. husky runs its
// scripts with sh -e, so a command that fails stops the script: in a post-*
// hook canon's line goes first, after the shebang, leading comments and
// husky 8's helper line, where no command of the repository's can skip
// it (canon's post-* hooks exit 0, so it never skips theirs). In pre-commit
// (and pre-push, where canon reads the refs git writes) it goes last: canon checks what the commands before it (lint-staged, a
// formatter) leave staged, and when one of them fails the commit is
// refused anyway.
func placeHuskyLine(data []byte, name, line string) []byte {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	if mayRefuse(name) {
		return append(data, line+"\n"...)
	}
	at := 0
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" || isHuskyCommand(l) {
			break
		}
		at += len(l)
	}
	out := append([]byte{}, data[:at]...)
	out = append(out, line+"\n"...)
	return append(out, data[at:]...)
}

var huskyHelperRe = lazyre.MustCompile(`^\.\s.*husky\.sh"?\s*$`)

// isHuskyCommand says a line of a husky script runs something: not blank,
// not a comment or the shebang, not husky 8's helper line.
func isHuskyCommand(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && !strings.HasPrefix(t, "#") && !huskyHelperRe.MatchString(t)
}

// huskySkipper finds the first command before canon's line in a husky
// script that can stop it: husky runs the script with sh -e, so when that
// command fails, canon does not run. A command ending in "|| true" cannot
// fail. skip is false when canon's line comes first, or is not there, and
// in pre-commit, where a command that fails refuses the commit anyway.
func huskySkipper(data []byte, name string) (cmd string, line int, skip bool) {
	if mayRefuse(name) {
		return "", 0, false
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "canon hook") {
			return cmd, line, cmd != ""
		}
		t := strings.TrimSpace(l)
		if cmd == "" && isHuskyCommand(l) && !strings.HasSuffix(t, "|| true") && !strings.HasSuffix(t, "|| :") {
			cmd, line = t, i+1
		}
	}
	return "", 0, false
}

func removeHusky(root string) ([]Edit, error) {
	lines := huskyLines()
	var edits []Edit
	for _, name := range Names {
		rel := ".husky/" + name
		p := filepath.Join(root, ".husky", name)
		data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
		if err != nil {
			continue
		}
		line := []byte(lines[name] + "\n")
		if !bytes.Contains(data, line) {
			edits = append(edits, Edit{Hook: name, Path: rel, Did: "unchanged"})
			continue
		}
		data = bytes.Replace(data, line, nil, 1)
		if len(bytes.TrimSpace(data)) == 0 {
			if err := safepath.Remove(p, root); err != nil {
				return edits, err
			}
			edits = append(edits, Edit{Hook: name, Path: rel, Did: "deleted"})
			continue
		}
		if err := writeKeepingMode(root, p, data, 0o755); err != nil {
			return edits, err
		}
		edits = append(edits, Edit{Hook: name, Path: rel, Did: "removed"})
	}
	return edits, nil
}

// --- lefthook: a canon command under each hook ---

// lefthookEntries are the snippet's command entries by hook, without
// indentation: "canon:", its "  run: ..." line, and pre-push's
// "  use_stdin: true" (lefthook hands git's input on only when asked).
func lefthookEntries() map[string][]string {
	out := map[string][]string{}
	hook := ""
	for _, l := range strings.Split(lefthookSnippet, "\n") {
		switch {
		case l == "":
		case !strings.HasPrefix(l, " "):
			hook = strings.TrimSuffix(l, ":")
		case strings.HasPrefix(l, "    "):
			out[hook] = append(out[hook], l[4:])
		}
	}
	return out
}

// lefthookBlock is the snippet's whole block for one hook.
func lefthookBlock(name string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.SplitAfter(lefthookSnippet, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			in = strings.TrimSpace(l) == name+":"
		}
		if in {
			b.WriteString(l)
		}
	}
	return b.String()
}

func lefthookFile(root string) (string, error) {
	for _, name := range lefthookConfigs {
		if isFile(filepath.Join(root, name)) {
			if !strings.HasSuffix(name, ".yml") && !strings.HasSuffix(name, ".yaml") {
				return name, fmt.Errorf("lefthook's configuration is %s; canon edits only YAML: add the snippet by hand: %w", name, ErrByHand)
			}
			return name, nil
		}
	}
	return "", nil
}

func addLefthook(root string) ([]Edit, error) {
	name, err := lefthookFile(root)
	if err != nil {
		return nil, err
	}
	if name == "" {
		p := filepath.Join(root, "lefthook.yml")
		if err := writeKeepingMode(root, p, []byte(lefthookSnippet), 0o644); err != nil {
			return nil, err
		}
		return []Edit{{Path: "lefthook.yml", Did: "created"}}, nil
	}
	p := filepath.Join(root, name)
	data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
	if err != nil {
		return nil, err
	}
	top, err := topMapping(data, name)
	if err != nil {
		return nil, err
	}
	lines := splitLines(data)
	entries := lefthookEntries()
	ins := map[int][]string{} // insert before line index
	var edits []Edit
	var appendText strings.Builder
	for _, hook := range Names {
		key, val := lookup(top, hook)
		if key == nil {
			appendText.WriteString(lefthookBlock(hook))
			edits = append(edits, Edit{Hook: hook, Path: name, Did: "added"})
			continue
		}
		var v any
		if val.Decode(&v) == nil && mentionsCanon(v) {
			edits = append(edits, Edit{Hook: hook, Path: name, Did: "unchanged"})
			continue
		}
		at, indent, jobs, err := lefthookInsertPoint(lines, key, val)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, hook, err)
		}
		entry := entries[hook]
		if jobs {
			entry = append([]string{"- name: canon"}, entry[1:]...) // "  run: ..."
		}
		for _, l := range entry {
			ins[at] = append(ins[at], indent+l)
		}
		edits = append(edits, Edit{Hook: hook, Path: name, Did: "added"})
	}
	var out []string
	for i := 0; i <= len(lines); i++ {
		out = append(out, ins[i]...)
		if i < len(lines) {
			out = append(out, lines[i])
		}
	}
	text := strings.Join(out, "\n")
	if appendText.Len() > 0 {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += appendText.String()
	}
	if text == string(data) {
		return edits, nil
	}
	return edits, writeKeepingMode(root, p, []byte(text), 0o644)
}

// lefthookInsertPoint finds where canon's command goes under a hook that
// is already configured: first among its commands (or jobs).
func lefthookInsertPoint(lines []string, key, val *yaml.Node) (at int, indent string, jobs bool, err error) {
	if val.Kind != yaml.MappingNode || val.Style&yaml.FlowStyle != 0 {
		return 0, "", false, fmt.Errorf("the hook is not a block mapping; add canon's command by hand: %w", ErrByHand)
	}
	for _, k := range []string{"commands", "jobs"} {
		ck, cv := lookup(val, k)
		if ck == nil {
			continue
		}
		if cv.Style&yaml.FlowStyle != 0 || len(cv.Content) == 0 {
			return 0, "", false, fmt.Errorf("its %s are empty or in flow style; add canon's command by hand: %w", k, ErrByHand)
		}
		first := cv.Content[0].Line - 1
		return ck.Line, leadingSpace(lines[first]), k == "jobs", nil
	}
	// Neither: a commands mapping of its own, at the hook's indentation.
	if len(val.Content) == 0 {
		return 0, "", false, fmt.Errorf("the hook is empty; add canon's command by hand: %w", ErrByHand)
	}
	ind := leadingSpace(lines[val.Content[0].Line-1])
	_ = key
	return 0, "", false, fmt.Errorf("it has no commands or jobs (indented %q); add canon's command by hand: %w", ind, ErrByHand)
}

var lefthookEntryRe = lazyre.MustCompile(`^(\s*)(canon:|- name: canon)\s*$`)

func removeLefthook(root string) ([]Edit, error) {
	name, err := lefthookFile(root)
	if err != nil || name == "" {
		return nil, err
	}
	p := filepath.Join(root, name)
	data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
	if err != nil {
		return nil, err
	}
	if string(data) == lefthookSnippet {
		return []Edit{{Path: name, Did: "deleted"}}, safepath.Remove(p, root)
	}
	runs := map[string]string{}
	entries := lefthookEntries()
	for hook, e := range entries {
		runs[strings.TrimSpace(e[1])] = hook
	}
	lines := splitLines(data)
	drop := map[int]bool{}
	var edits []Edit
	for i := 0; i+1 < len(lines); i++ {
		m := lefthookEntryRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		next := lines[i+1]
		hook, ok := runs[strings.TrimSpace(next)]
		if !ok || leadingSpace(next) != m[1]+"  " {
			continue
		}
		drop[i], drop[i+1] = true, true
		for j, more := range entries[hook][2:] {
			if k := i + 2 + j; k < len(lines) && strings.TrimSpace(lines[k]) == strings.TrimSpace(more) {
				drop[k] = true
			}
		}
		edits = append(edits, Edit{Hook: hook, Path: name, Did: "removed"})
	}
	// A hook left with an empty commands mapping was canon's alone.
	for i := 0; i+1 < len(lines); i++ {
		if drop[i] || !lefthookHookRe.MatchString(lines[i]) {
			continue
		}
		j := i + 1
		for j < len(lines) && drop[j] {
			j++
		}
		if j >= len(lines) || strings.TrimRight(lines[j], " ") != "  commands:" {
			continue
		}
		k := j + 1
		for k < len(lines) && drop[k] {
			k++
		}
		if k >= len(lines) || !strings.HasPrefix(lines[k], "   ") {
			drop[i], drop[j] = true, true
		}
	}
	text := strings.Join(keep(lines, drop), "\n")
	if text == string(data) {
		return nil, nil
	}
	if strings.TrimSpace(text) == "" {
		return append(edits, Edit{Path: name, Did: "deleted"}), safepath.Remove(p, root)
	}
	return edits, writeKeepingMode(root, p, []byte(text), 0o644)
}

var lefthookHookRe = lazyre.MustCompile(`^[a-z-]+:\s*$`)

// --- pre-commit: canon's repository in .pre-commit-config.yaml ---

const canonRepoURL = "https://github.com/canon-md/canon"

// preCommitEntry is the snippet's repos item, without indentation.
func preCommitEntry() []string {
	var out []string
	in := false
	for _, l := range strings.Split(preCommitSnippet, "\n") {
		if strings.HasPrefix(l, "  - repo: ") {
			in = true
		}
		if in && l != "" {
			out = append(out, l[2:])
		}
	}
	return out
}

func addPreCommit(root string) ([]Edit, error) {
	p := filepath.Join(root, preCommitConfig)
	data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
	if errors.Is(err, os.ErrNotExist) {
		if err := writeKeepingMode(root, p, []byte(preCommitSnippet), 0o644); err != nil {
			return nil, err
		}
		return []Edit{{Path: preCommitConfig, Did: "created"}}, nil
	}
	if err != nil {
		return nil, err
	}
	top, err := topMapping(data, preCommitConfig)
	if err != nil {
		return nil, err
	}
	lines := splitLines(data)
	ins := map[int][]string{}
	replace := map[int]string{}
	var edits []Edit

	// default_install_hook_types: every hook canon needs.
	firstLine := strings.SplitN(preCommitSnippet, "\n", 2)[0]
	if key, val := lookup(top, "default_install_hook_types"); key == nil {
		ins[0] = append(ins[0], firstLine)
		edits = append(edits, Edit{Hook: "default_install_hook_types", Path: preCommitConfig, Did: "added"})
	} else {
		var have []string
		if val.Decode(&have) != nil || val.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("%s: default_install_hook_types is not a list; add %s by hand: %w", preCommitConfig, strings.Join(Names, ", "), ErrByHand)
		}
		var missing []string
		for _, n := range Names {
			if !slices.Contains(have, n) {
				missing = append(missing, n)
			}
		}
		switch {
		case len(missing) == 0:
		case val.Style&yaml.FlowStyle != 0 && key.Line == val.Line && endsLine(lines[key.Line-1], "]"):
			replace[key.Line-1] = leadingSpace(lines[key.Line-1]) + "default_install_hook_types: [" + strings.Join(append(have, missing...), ", ") + "]"
			edits = append(edits, Edit{Hook: "default_install_hook_types", Path: preCommitConfig, Did: "added"})
		case val.Style&yaml.FlowStyle == 0 && len(val.Content) > 0:
			last := val.Content[len(val.Content)-1].Line // 1-based: insert after it
			ind := leadingSpace(lines[last-1])
			for _, n := range missing {
				ins[last] = append(ins[last], ind+"- "+n)
			}
			edits = append(edits, Edit{Hook: "default_install_hook_types", Path: preCommitConfig, Did: "added"})
		default:
			return nil, fmt.Errorf("%s: add %s to default_install_hook_types by hand: %w", preCommitConfig, strings.Join(missing, ", "), ErrByHand)
		}
	}

	// canon's repository at the end of repos.
	if bytes.Contains(data, []byte(canonRepoURL)) || bytes.Contains(data, []byte("canon hook")) {
		edits = append(edits, Edit{Hook: "repos", Path: preCommitConfig, Did: "unchanged"})
	} else {
		key, val := lookup(top, "repos")
		switch {
		case key == nil:
			ins[len(lines)] = append(ins[len(lines)], "repos:")
			for _, l := range preCommitEntry() {
				ins[len(lines)] = append(ins[len(lines)], "  "+l)
			}
		case val.Kind == yaml.SequenceNode && val.Style&yaml.FlowStyle == 0 && len(val.Content) > 0:
			ind := leadingSpace(lines[val.Content[0].Line-1])
			end := blockEnd(lines, key.Line)
			for _, l := range preCommitEntry() {
				ins[end] = append(ins[end], ind+l)
			}
		default:
			return nil, fmt.Errorf("%s: repos is empty or in flow style; add canon's repository by hand: %w", preCommitConfig, ErrByHand)
		}
		edits = append(edits, Edit{Hook: "repos", Path: preCommitConfig, Did: "added"})
	}
	var out []string
	for i := 0; i <= len(lines); i++ {
		out = append(out, ins[i]...)
		if i < len(lines) {
			if r, ok := replace[i]; ok {
				out = append(out, r)
			} else {
				out = append(out, lines[i])
			}
		}
	}
	text := strings.Join(out, "\n")
	if text == string(data) {
		return edits, nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return edits, writeKeepingMode(root, p, []byte(text), 0o644)
}

var canonRepoRe = lazyre.MustCompile(`^(\s*)- repo: ` + regexp.QuoteMeta(canonRepoURL) + `\s*$`)

func removePreCommit(root string) ([]Edit, error) {
	p := filepath.Join(root, preCommitConfig)
	data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
	if err != nil {
		return nil, nil
	}
	if string(data) == preCommitSnippet {
		return []Edit{{Path: preCommitConfig, Did: "deleted"}}, safepath.Remove(p, root)
	}
	lines := splitLines(data)
	drop := map[int]bool{}
	for i := 0; i < len(lines); i++ {
		m := canonRepoRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		drop[i] = true
		for j := i + 1; j < len(lines) && (strings.TrimSpace(lines[j]) == "" || len(leadingSpace(lines[j])) > len(m[1])); j++ {
			if strings.TrimSpace(lines[j]) == "" {
				break
			}
			drop[j] = true
		}
	}
	if len(drop) == 0 {
		return nil, nil
	}
	text := strings.Join(keep(lines, drop), "\n")
	return []Edit{{Hook: "repos", Path: preCommitConfig, Did: "removed"}}, writeKeepingMode(root, p, []byte(text), 0o644)
}

// --- YAML helpers: positions from the parser, edits on the lines ---

func topMapping(data []byte, name string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s does not parse as YAML: %w; fix it first", name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode}, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || top.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%s is not a block mapping at the top; add canon's part by hand: %w", name, ErrByHand)
	}
	return top, nil
}

func lookup(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// blockEnd is the index of the first line after the block that starts at
// the top-level key on line keyLine (1-based): the next line at column 1
// that is not blank or a comment, with trailing blank lines left after it.
func blockEnd(lines []string, keyLine int) int {
	end := len(lines)
	for i := keyLine; i < len(lines); i++ {
		l := lines[i]
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "-") {
			end = i
			break
		}
	}
	for end > keyLine && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return end
}

func splitLines(data []byte) []string {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if strings.HasSuffix(string(data), "\n") {
		lines = append(lines, "")
	}
	return lines
}

func keep(lines []string, drop map[int]bool) []string {
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	return out
}

func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func endsLine(s, suffix string) bool {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.HasSuffix(strings.TrimSpace(s), suffix)
}
