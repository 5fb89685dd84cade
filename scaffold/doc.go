// Package scaffold writes a new promptc project: a small working example (two tasks, a constant, global, task,
// session and turn blocks, a fixture, golden/) that promptc check passes and promptc lint finds clean.
package scaffold
