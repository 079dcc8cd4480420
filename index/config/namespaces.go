package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/safepath"
)

// A Namespace is a folder that is an id space of its own: a product of a
// Kano backlog, a service of a monorepo. Two documents in different
// namespaces may share an id, and a reference resolves inside the
// referring document's namespace first.
type Namespace struct {
	// Path is a folder, or a glob of folders ("_kano/backlog/products/*"),
	// relative to the repository root.
	Path string `yaml:"path" json:"path"`
	// Name names the namespace (NAMESPACE:ID on the command line). For a
	// glob it is left empty: each folder is named by what its wildcards
	// matched.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// States, when set, are the states work items in the namespace may
	// take (a Kano product's process profile), in place of their kind's.
	States []string `yaml:"states,omitempty" json:"states,omitempty"`
	// Types, when set, are the work item types of its process profile:
	// a parent kind it lacks is skipped over (Jira has no Feature, so a
	// story's parent is an epic).
	Types []string `yaml:"types,omitempty" json:"types,omitempty"`
	// Unchecked says the states are not known (a process profile canon
	// cannot read): they are not checked.
	Unchecked bool `yaml:"-" json:"unchecked,omitempty"`
	// From says where canon found it: "" for the configuration file,
	// else the Kano file that declared it.
	From string `yaml:"-" json:"from,omitempty"`
	// Note says what canon could not read, for canon init.
	Note string `yaml:"-" json:"note,omitempty"`
}

// Namespaces are the configured namespaces; the first that holds a path
// decides.
type Namespaces []Namespace

// DefaultNamespaces: each product folder of a Kano backlog.
func DefaultNamespaces() Namespaces {
	return Namespaces{{Path: "_kano/backlog/products/*"}}
}

// Of returns the name of the namespace that holds the repo-relative path,
// and its entry; "" and nil for a path in none.
func (ns Namespaces) Of(p string) (string, *Namespace) {
	segs := strings.Split(p, "/")
	for i := range ns {
		n := &ns[i]
		glob := strings.Split(n.Path, "/")
		if len(glob) >= len(segs) { // the folder itself is no document in it
			continue
		}
		var wild []string
		ok := true
		for j, g := range glob {
			if m, _ := path.Match(g, segs[j]); !m {
				ok = false
				break
			}
			if strings.ContainsAny(g, "*?[") {
				wild = append(wild, segs[j])
			}
		}
		if !ok {
			continue
		}
		switch {
		case n.Name != "":
			return n.Name, n
		case len(wild) > 0:
			return strings.Join(wild, "/"), n
		}
		return glob[len(glob)-1], n
	}
	return "", nil
}

// Folders lists the folders of the namespace called name (none when no
// namespace has that name).
func (ns Namespaces) Folders(name string) []string {
	var out []string
	parts := strings.Split(name, "/")
	for _, n := range ns {
		glob := strings.Split(n.Path, "/")
		switch {
		case n.Name != "":
			if n.Name == name {
				out = append(out, n.Path)
			}
		case !strings.ContainsAny(n.Path, "*?["):
			if glob[len(glob)-1] == name {
				out = append(out, n.Path)
			}
		default:
			// Put the name's parts where the wildcards are.
			folder := make([]string, len(glob))
			k := 0
			ok := true
			for i, g := range glob {
				if !strings.ContainsAny(g, "*?[") {
					folder[i] = g
					continue
				}
				if k >= len(parts) {
					ok = false
					break
				}
				if m, _ := path.Match(g, parts[k]); !m {
					ok = false
					break
				}
				folder[i] = parts[k]
				k++
			}
			if ok && k == len(parts) {
				out = append(out, strings.Join(folder, "/"))
			}
		}
	}
	return out
}

// hash is what of the namespaces shapes the index (which folders, under
// which names).
func (ns Namespaces) hash() [][2]string {
	out := make([][2]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, [2]string{n.Path, n.Name})
	}
	return out
}

// UnmarshalYAML reads a namespace written as a folder or glob, or as a
// mapping {path, name, states}.
func (n *Namespace) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind == yaml.ScalarNode {
		n.Path = node.Value
	} else {
		type plain Namespace
		var p plain
		if err := node.Load(&p, yaml.WithKnownFields()); err != nil {
			return err
		}
		*n = Namespace(p)
	}
	if err := checkPrintable("namespaces", n.Path); err != nil {
		return err
	}
	if err := checkPrintable("namespaces: name", n.Name); err != nil {
		return err
	}
	clean, err := cleanRoot(n.Path)
	if err != nil {
		return fmt.Errorf("namespaces: %v", strings.Replace(err.Error(), "root", "folder", 1))
	}
	if clean == "." {
		return errors.New("namespaces: the repository root is no namespace; name a folder inside it")
	}
	if _, err := path.Match(clean, ""); err != nil {
		return fmt.Errorf("namespaces: %q is not a glob: %w", n.Path, err)
	}
	if strings.Contains(n.Name, ":") || strings.ContainsAny(n.Name, " \t/") {
		return fmt.Errorf("namespaces: name %q may not hold ':', '/' or spaces", n.Name)
	}
	n.Path = clean
	return nil
}

// KanoConfig is where a Kano project declares its products.
const KanoConfig = ".kano/backlog_config.toml"

// detectKano reads a Kano project's products and their process profiles:
// each product's backlog_root becomes a namespace named after the product,
// with the states its profile allows. What canon cannot read is noted and
// left unchecked: a rule stricter than the repository's own is a false
// alarm.
func detectKano(root string) (Namespaces, error) {
	data, err := safepath.ReadFile(filepath.Join(root, KanoConfig), safepath.ConfigLimit, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f struct {
		Products map[string]struct {
			Prefix      string `toml:"prefix"`
			BacklogRoot string `toml:"backlog_root"`
		} `toml:"products"`
	}
	if _, err := toml.Decode(string(data), &f); err != nil {
		return nil, &Error{Path: KanoConfig, Msg: fmt.Sprintf("does not parse (%v); canon reads its [products] to find the product folders", err)}
	}
	names := make([]string, 0, len(f.Products))
	for name := range f.Products {
		names = append(names, name)
	}
	sort.Strings(names)
	var out Namespaces
	for _, name := range names {
		p := f.Products[name]
		rootDir, err := cleanRoot(p.BacklogRoot)
		if err != nil || rootDir == "." || strings.Contains(name, ":") || checkPrintable("", rootDir) != nil || checkPrintable("", name) != nil {
			continue // not a folder canon can use
		}
		n := Namespace{Path: rootDir, Name: name, From: KanoConfig}
		prof, err := processProfile(root, rootDir)
		switch {
		case err != nil:
			n.Unchecked, n.Note = true, err.Error()
		case prof != nil:
			n.States = prof.States
			for _, t := range prof.Types {
				n.Types = append(n.Types, t.Type)
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// profile is what canon reads of a Kano process profile.
type profile struct {
	States []string `json:"states" toml:"states"`
	Types  []struct {
		Type string `json:"type" toml:"type"`
	} `json:"work_item_types" toml:"work_item_types"`
}

// builtinStates are the states of Kano's built-in profiles
// (builtin/azure-boards-agile, scrum, cmmi, jira-default): all four share
// one set.
var builtinStates = []string{"Proposed", "Planned", "Ready", "InProgress", "Review", "Blocked", "Done", "Dropped"}

// builtinTypes are the work item types of Kano's built-in profiles.
var builtinTypes = map[string][]string{
	"builtin/azure-boards-agile": {"Epic", "Feature", "UserStory", "Task", "Bug"},
	"builtin/cmmi":               {"Epic", "Feature", "UserStory", "Task", "Bug"},
	"builtin/scrum":              {"Epic", "Feature", "UserStory", "Task", "Bug"},
	"builtin/jira-default":       {"Epic", "Story", "Task", "Bug", "SubTask"},
}

// processProfile reads the profile a product's _config/config.toml (or
// config.json) names: [process] path (a JSON or TOML file, relative to the
// repository) or profile (a built-in). nil, nil: the product names none
// and gets the defaults.
func processProfile(root, productDir string) (*profile, error) {
	var cfg struct {
		Process struct {
			Path    *string `toml:"path" json:"path"`
			Profile *string `toml:"profile" json:"profile"`
		} `toml:"process" json:"process"`
	}
	dir := filepath.Join(root, filepath.FromSlash(productDir), "_config")
	name := "config.toml"
	data, err := safepath.ReadFile(filepath.Join(dir, name), safepath.ConfigLimit, root)
	if errors.Is(err, fs.ErrNotExist) {
		name = "config.json"
		data, err = safepath.ReadFile(filepath.Join(dir, name), safepath.ConfigLimit, root)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("its configuration cannot be read (%w), so states are not checked", err)
	case name == "config.toml":
		_, err = toml.Decode(string(data), &cfg)
	default:
		err = json.Unmarshal(data, &cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("%s/_config/%s does not parse: %w", productDir, name, err)
	}
	if p := cfg.Process.Path; p != nil && *p != "" {
		rel, err := cleanRoot(*p)
		if err != nil {
			return nil, fmt.Errorf("its process profile %s is not a file in the repository", *p)
		}
		data, err := safepath.ReadFile(filepath.Join(root, filepath.FromSlash(rel)), safepath.ConfigLimit, root)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("its process profile %s cannot be read (a submodule not checked out?), so states are not checked", rel)
		}
		if err != nil {
			return nil, fmt.Errorf("its process profile cannot be read (%w), so states are not checked", err)
		}
		var prof profile
		if strings.HasSuffix(strings.ToLower(rel), ".json") {
			err = json.Unmarshal(data, &prof)
		} else {
			_, err = toml.Decode(string(data), &prof)
		}
		if err != nil {
			return nil, fmt.Errorf("its process profile %s does not parse (%w), so states are not checked", rel, err)
		}
		if len(prof.States) == 0 {
			return nil, fmt.Errorf("its process profile %s lists no states, so states are not checked", rel)
		}
		return &prof, nil
	}
	if p := cfg.Process.Profile; p != nil && *p != "" {
		if types, ok := builtinTypes[*p]; ok {
			prof := &profile{States: builtinStates}
			for _, t := range types {
				prof.Types = append(prof.Types, struct {
					Type string `json:"type" toml:"type"`
				}{t})
			}
			return prof, nil
		}
		return nil, fmt.Errorf("its process profile %q is not one canon knows, so states are not checked", *p)
	}
	return nil, nil
}

// Detected describes, as commented YAML for canon init, the namespaces
// canon found by itself (a Kano project's products): what it will do with
// no configuration, written out so that people see it and can override
// it. "" when it found none.
func (ns Namespaces) Detected() string {
	var b strings.Builder
	for _, n := range ns {
		if n.From == "" {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "\n# Detected by canon init in %s: the products of this Kano project.\n", n.From)
			b.WriteString("# canon reads that file at every run, so these need no entry here; to\n")
			b.WriteString("# override one, copy it into namespaces: above (an entry there wins for its\n")
			b.WriteString("# folder).\n#\n# namespaces:\n")
		}
		entry := fmt.Sprintf("{path: %s, name: %s", n.Path, n.Name)
		if len(n.States) > 0 {
			entry += ", states: [" + strings.Join(n.States, ", ") + "]"
		}
		if len(n.Types) > 0 {
			entry += ", types: [" + strings.Join(n.Types, ", ") + "]"
		}
		entry += "}"
		fmt.Fprintf(&b, "#   - %s\n", entry)
		if n.Note != "" {
			fmt.Fprintf(&b, "#     # %s: %s\n", n.Name, n.Note)
		}
	}
	return b.String()
}
