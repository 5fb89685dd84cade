package gitfs

import (
	"net/url"
	"strings"
)

// WebURL returns the web address of the repository holding dir, from its remote "origin" (or, without one, its only
// remote): https://HOST/OWNER/REPO for a remote written as https://HOST/OWNER/REPO(.git), git@HOST:OWNER/REPO(.git)
// or ssh://[USER@]HOST[:PORT]/OWNER/REPO(.git). User names and passwords in the address (CI checkouts put tokens
// there) are dropped. ok is false when dir has no such remote, or its address is of another kind (a path, a
// file:// URL).
func WebURL(dir string) (base string, ok bool) {
	remote, err := git(dir, "remote", "get-url", "origin")
	if err != nil {
		names, err := git(dir, "remote")
		if err != nil || names == "" || strings.Contains(names, "\n") {
			return "", false
		}
		if remote, err = git(dir, "remote", "get-url", names); err != nil {
			return "", false
		}
	}
	return webURL(remote)
}

// webURL is WebURL's reading of one remote address.
func webURL(remote string) (string, bool) {
	var host, p string
	switch {
	case strings.HasPrefix(remote, "https://") || strings.HasPrefix(remote, "http://") || strings.HasPrefix(remote, "ssh://"):
		u, err := url.Parse(remote)
		if err != nil || u.Hostname() == "" {
			return "", false
		}
		host, p = u.Hostname(), u.Path
		if u.Scheme != "ssh" && u.Port() != "" {
			host = u.Host
		}
	case !strings.Contains(remote, "://"):
		// scp-like syntax, USER@HOST:PATH; a local path has no colon before its first slash.
		at, rest, found := strings.Cut(remote, ":")
		if !found || strings.Contains(at, "/") {
			return "", false
		}
		if _, h, found := strings.Cut(at, "@"); found {
			at = h
		}
		host, p = at, "/"+rest
	default:
		return "", false
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/"), ".git")
	if host == "" || strings.Count(p, "/") < 2 {
		return "", false
	}
	return "https://" + host + p, true
}
