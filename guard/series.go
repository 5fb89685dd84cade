package guard

import (
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/usage"
)

// SeriesOptions shape Series.
type SeriesOptions struct {
	// By is the period: usage.Hour or usage.Day (UTC).
	By usage.Period
	// Catalog prices the requests (nil: no prices).
	Catalog *projection.Catalog
	// Log marks each period with the commits of Range (a revision range as ReadLog reads it; "" for HEAD) made in
	// it that invalidated a stable prefix.
	Log   bool
	Range string
	// Options are ReadLog's, for Log.
	Options Options
}

// Series is t per period, as promptc usage --by prints it and the preview's timeline (promptc serve --usage) draws
// it: the requests, hit rate and cost of each period, and with Log the commits of the project at root that
// invalidated a prefix, each in the period holding its commit time (docs/usage.md). root is read only for Log.
func Series(root string, t *usage.Tally, opt SeriesOptions) (*usage.Series, error) {
	s := t.Series(opt.By, opt.Catalog)
	if opt.Log {
		l, err := ReadLog(root, opt.Range, opt.Options)
		if err != nil {
			return nil, err
		}
		s.Mark(l.Marks())
	}
	return s, nil
}
