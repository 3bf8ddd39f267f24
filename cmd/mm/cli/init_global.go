package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/mm-agent/mm/internal/userconfig"
)

// globalInitDir is where mm init --global writes: the person's own mm
// folder, made (0700, as the XDG base directory specification asks) when
// it is not there; and the folder as the lines name it, "~/.config/mm/".
func globalInitDir(getenv func(string) string) (dir, shown string, err error) {
	dir = userconfig.Dir(getenv)
	if dir == "" {
		return "", "", errors.New("mm init --global: no folder of your own to write in: set HOME or XDG_CONFIG_HOME")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", fmt.Errorf("mm init --global: %w", err)
	}
	return dir, userconfig.Show(dir, getenv) + "/", nil
}
