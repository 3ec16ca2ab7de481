from memdesk.cli.main import main

raise SystemExit(main())
