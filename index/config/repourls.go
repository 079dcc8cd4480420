package config

import (
	"fmt"
	"slices"
	"strings"
)

// MaxRepoURLs bounds repo_urls: each entry is compared with every web
// link of every document, and the list comes with the repository.
const MaxRepoURLs = 8

// checkRepoURLs checks repo_urls (the repository's own web addresses,
// such as https://github.com/rust-lang/rfcs) and writes each as canon
// compares it with a link: host and path, lower-case, without the scheme,
// "www.", ".git" or a trailing slash (github.com/rust-lang/rfcs).
func checkRepoURLs(key string, urls []string) ([]string, error) {
	if len(urls) > MaxRepoURLs {
		return nil, fmt.Errorf("%s lists %d addresses; at most %d are allowed, list the repository's own address (and its old names)", key, len(urls), MaxRepoURLs)
	}
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		base, ok := RepoURLBase(u)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a repository's web address; write it like https://github.com/OWNER/REPO", key, u)
		}
		if !slices.Contains(out, base) {
			out = append(out, base)
		}
	}
	return out, nil
}

// RepoURLBase writes a repository's web address as repo_urls keeps it
// (github.com/owner/repo), and reports whether it is one: an optional
// http or https scheme, a host (letters, digits, dots, dashes, a port), and
// two or more path segments (an owner and a repository, GitLab's groups) of
// letters, digits, dots, dashes and underscores; no user, query or
// fragment; at most 200 bytes.
func RepoURLBase(u string) (string, bool) {
	s := strings.ToLower(strings.TrimSpace(u))
	if len(s) > 200 {
		return "", false
	}
	for _, scheme := range []string{"https://", "http://"} {
		if strings.HasPrefix(s, scheme) {
			s = s[len(scheme):]
			break
		}
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".git")
	s = strings.TrimPrefix(s, "www.")
	host, p, ok := strings.Cut(s, "/")
	if !ok || !isHost(host) || !strings.Contains(p, "/") {
		return "", false // github.com/acme is an owner's page, not a repository
	}
	for _, seg := range strings.Split(p, "/") {
		if !isSegment(seg) {
			return "", false
		}
	}
	return s, true
}

func isHost(h string) bool {
	name, port, hasPort := strings.Cut(h, ":")
	if name == "" || !strings.Contains(name, ".") || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789.-") == ""
}

func isSegment(s string) bool {
	return s != "" && s != "." && s != ".." && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789.-_") == ""
}
