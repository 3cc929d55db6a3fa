import sys

from .kernel import main

sys.exit(main())
