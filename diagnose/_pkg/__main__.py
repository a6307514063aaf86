"""``python -m ascend_doctor`` runs the CLI."""
import sys

from ascend_doctor.diagnose.cli.main import main

sys.exit(main())
