package config

import (
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/safepath"
)

// TestLoadReadsNoDevice: the configuration and Kano's are read as every
// repository file is: a link to /dev/zero is a named error, not an
// endless read; a process profile that leads out is a note.
func TestLoadReadsNoDevice(t *testing.T) {
	root := t.TempDir()
	must.OK(t, os.MkdirAll(filepath.Join(root, ".canon"), 0o755))
	must.OK(t, os.Symlink("/dev/zero", filepath.Join(root, File)))
	if _, err := Load(root); !errors.As(err, new(*safepath.NotRegularError)) || !strings.Contains(err.Error(), ".canon/config.yaml is a character device") {
		t.Errorf("config.yaml -> /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(root, File))
	must.OK(t, os.MkdirAll(filepath.Join(root, ".kano"), 0o755))
	must.OK(t, os.Symlink("/dev/urandom", filepath.Join(root, KanoConfig)))
	if _, err := Load(root); !errors.As(err, new(*safepath.NotRegularError)) {
		t.Errorf("backlog_config.toml -> /dev/urandom: %v", err)
	}
	// A product whose process profile is a link out: unchecked, and why.
	os.Remove(filepath.Join(root, KanoConfig))
	must.OK(t, os.WriteFile(filepath.Join(root, KanoConfig), []byte("[products.p]\nbacklog_root = \"p\"\n"), 0o644))
	must.OK(t, os.MkdirAll(filepath.Join(root, "p", "_config"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(root, "p", "_config", "config.toml"), []byte("[process]\npath = \"prof.toml\"\n"), 0o644))
	secret := filepath.Join(t.TempDir(), "prof.toml")
	must.OK(t, os.WriteFile(secret, []byte("states = [\"s3cr3t\"]\n"), 0o600))
	must.OK(t, os.Symlink(secret, filepath.Join(root, "prof.toml")))
	cfg, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var n *Namespace
	for i := range cfg.Namespaces {
		if cfg.Namespaces[i].Name == "p" {
			n = &cfg.Namespaces[i]
		}
	}
	if n == nil || !n.Unchecked || len(n.States) != 0 || !strings.Contains(n.Note, "canon reads nothing outside it") {
		t.Errorf("a profile that leads out: %+v", n)
	}
}
