// Package linkfs serves a project as an fs.FS that follows a symbolic link only while the link stays inside a
// boundary (the git work tree holding the project, else the project directory), by one rule for a directory on
// disk and for a git commit, so that promptc reads a project the same way from both. On disk, every access goes
// through an os.Root of the project directory or of the boundary, so no read leaves the boundary.
package linkfs
