package hook

import "path/filepath"

// InstallCheckPaths returns dir and session, paths from the working directory as promptc hook install-check takes
// them (hook managers run hooks from the top of the repository), as paths from project (a path from the working
// directory too; "" for the working directory itself): what they are for the promptc -C project install that
// install-check suggests. An absolute path stays absolute; a session of "" (none) or "-" (standard input) is kept.
func InstallCheckPaths(project, dir, session string) (string, string) {
	if session != "" && session != "-" {
		session = relativeTo(project, session)
	}
	return relativeTo(project, dir), session
}

// relativeTo returns p, a path from the working directory, as a path from base (also from the working directory,
// "" for the working directory itself): what p is for a command run with -C base. An absolute p stays absolute.
func relativeTo(base, p string) string {
	if base == "" || filepath.IsAbs(p) {
		return p
	}
	absBase, err1 := filepath.Abs(base)
	absP, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return p
	}
	if rel, err := filepath.Rel(absBase, absP); err == nil {
		return rel
	}
	return absP
}
