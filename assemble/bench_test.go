package assemble_test

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/gen"
	"github.com/promptc/promptc/source"
	valuespkg "github.com/promptc/promptc/values"
)

// benchTasks and benchSizes are the shapes the build speed is measured on
// (docs/decisions.md#build-speed-loading-and-compiling): 200 and 2,000 blocks, 20 tasks. Comparing ns/block across
// sizes shows whether cost grows linearly with the number of blocks.
const benchTasks = 20

var benchSizes = []int{200, 2000}

// benchProject is one generated project, kept in memory and, on demand, on disk.
type benchProject struct {
	blocks int
	files  map[string][]byte
	fsys   fstest.MapFS
}

var benchProjects = map[int]*benchProject{}

func benchProjectOf(b *testing.B, blocks int) *benchProject {
	b.Helper()
	p, ok := benchProjects[blocks]
	if !ok {
		files := gen.Files(blocks, benchTasks)
		p = &benchProject{blocks: blocks, files: files, fsys: gen.FS(files)}
		benchProjects[blocks] = p
	}
	return p
}

func benchSource(b *testing.B, fsys fstest.MapFS) *blocks.Project {
	b.Helper()
	p, diags := valuespkg.Load(fsys)
	if len(diags) > 0 {
		b.Fatalf("load: %s", diags)
	}
	return p
}

func benchCompile(b *testing.B, p *blocks.Project) *assemble.Program {
	b.Helper()
	prog, diags := assemble.Compile(p)
	if len(diags) > 0 {
		b.Fatalf("compile: %s", diags)
	}
	return prog
}

// benchReport adds the per-block cost, the figure that must stay flat as projects grow.
func benchReport(b *testing.B, blocks int) {
	if b.N > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(blocks), "ns/block")
	}
}

// benchOutputBytes is the total size of the artifacts, so that -bench reports build throughput in MB/s.
func benchOutputBytes(arts []*assemble.Artifact) int64 {
	n := 0
	for _, a := range arts {
		n += len(a.Text)
	}
	return int64(n)
}

func benchEachSize(b *testing.B, f func(b *testing.B, p *benchProject)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			p := benchProjectOf(b, n)
			b.ReportAllocs()
			f(b, p)
			benchReport(b, n)
		})
	}
}

// BenchmarkLoad measures reading and checking the sources (values.Load) from memory.
func BenchmarkLoad(b *testing.B) {
	benchEachSize(b, func(b *testing.B, p *benchProject) {
		for b.Loop() {
			benchSource(b, p.fsys)
		}
	})
}

// BenchmarkCompile measures parsing and checking every body of a loaded project.
func BenchmarkCompile(b *testing.B) {
	benchEachSize(b, func(b *testing.B, p *benchProject) {
		loaded := benchSource(b, p.fsys)
		for b.Loop() {
			benchCompile(b, loaded)
		}
	})
}

// BenchmarkBuild measures rendering every artifact of a compiled program.
func BenchmarkBuild(b *testing.B) {
	benchEachSize(b, func(b *testing.B, p *benchProject) {
		prog := benchCompile(b, benchSource(b, p.fsys))
		arts, _ := prog.Build()
		b.SetBytes(benchOutputBytes(arts))
		for b.Loop() {
			if _, diags := prog.Build(); len(diags) > 0 {
				b.Fatalf("build: %s", diags)
			}
		}
	})
}

// BenchmarkLoadCompileBuild measures the whole pipeline short of writing files: what `promptc build` computes. The
// fs=disk variant reads the sources from a temporary directory through assemble.LoadDir, as the command does.
func BenchmarkLoadCompileBuild(b *testing.B) {
	for _, n := range benchSizes {
		for _, where := range []string{"mem", "disk"} {
			b.Run(fmt.Sprintf("blocks=%d/fs=%s", n, where), func(b *testing.B) {
				p := benchProjectOf(b, n)
				load := func() (*assemble.Program, source.Diagnostics) { return assemble.Load(p.fsys) }
				if where == "disk" {
					dir := b.TempDir()
					if err := gen.WriteDir(dir, p.files); err != nil {
						b.Fatal(err)
					}
					load = func() (*assemble.Program, source.Diagnostics) { return assemble.LoadDir(dir) }
				}
				b.ReportAllocs()
				for b.Loop() {
					prog, diags := load()
					if len(diags) > 0 {
						b.Fatalf("load: %s", diags)
					}
					arts, diags := prog.Build()
					if len(diags) > 0 {
						b.Fatalf("build: %s", diags)
					}
					b.SetBytes(benchOutputBytes(arts))
				}
				benchReport(b, n)
			})
		}
	}
}
