package config

import (
	"fmt"
	"regexp"
)

// Sidecar is a YAML file beside a folder's README.md whose fields are the
// README's document's, where its own frontmatter does not set them
// (Kubernetes' kep.yaml: a KEP's title, status, stage; issue 43). ID
// names the sidecar's field an id is written from, after Prefix
// (kep-number 2400 and KEP-: KEP-2400), for a document without an id.
type Sidecar struct {
	File   string `yaml:"file" json:"file"`
	ID     string `yaml:"id" json:"id,omitempty"`
	Prefix string `yaml:"prefix" json:"prefix,omitempty"`
}

// SidecarBeside is the file a sidecar is beside: a folder's page, as
// GitHub shows it.
const SidecarBeside = "README.md"

// MaxSidecars bounds sidecars: each README read looks for each.
const MaxSidecars = 4

// MaxSidecarBytes bounds what one sidecar may make canon read: a
// kep.yaml is a few kilobytes; a larger file is not read, and its
// document says so.
const MaxSidecarBytes = 64 << 10

var (
	sidecarFileRE   = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}\.ya?ml$`)
	sidecarPrefixRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$`)
)

// checkSidecars checks sidecars as key (sidecars, learned.sidecars) gives
// them: a plain YAML file name, a field's name, a short prefix.
func checkSidecars(key string, s []Sidecar) ([]Sidecar, error) {
	if len(s) > MaxSidecars {
		return nil, fmt.Errorf("%s lists %d files; at most %d are allowed", key, len(s), MaxSidecars)
	}
	out := make([]Sidecar, 0, len(s))
	for _, c := range s {
		if !sidecarFileRE.MatchString(c.File) {
			return nil, fmt.Errorf("%s: %q is not the name of a YAML file beside a README.md; write one such as kep.yaml", key, c.File)
		}
		if c.ID != "" {
			if err := checkStateField(key+".id", c.ID); err != nil {
				return nil, err
			}
		}
		if c.Prefix != "" && !sidecarPrefixRE.MatchString(c.Prefix) {
			return nil, fmt.Errorf("%s.prefix: %q is not an id prefix; write one such as KEP-", key, c.Prefix)
		}
		out = append(out, c)
	}
	return out, nil
}
