/**
 * Module boundaries, checked by `npm test` (test/architecture/module-boundaries.spec.ts).
 * A module is a folder under src/modules or src/shared. Cycles between modules are found by
 * the spec on the graph of modules, since two modules can depend on each other through files
 * that form no cycle of their own.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-other-modules-infrastructure',
      comment:
        "A module uses another through its application or domain, never its infrastructure, ORM entities or persistence " +
        '(its tables and the runners of its statements: another module holding them could run its SQL).',
      severity: 'error',
      from: { path: '^src/(modules|shared)/([^/]+)/' },
      to: { path: '^src/(modules|shared)/[^/]+/(infrastructure/|.*[.]orm-entity[.]ts$|persistence[.]ts$)', pathNot: '^src/$1/$2/' },
    },
    {
      name: 'statements-through-module-persistence',
      comment:
        "A module runs SQL through its persistence (module-persistence.ts), whose runners take its own statements only. " +
        "The runners that take any module's statements are for src/shared's code that runs what its callers own.",
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/shared/database/(prepared-statements|run-statement)[.]ts$' },
    },
    {
      name: 'application-without-infrastructure',
      comment: "Application code depends on ports (its domain's or its own), bound to their infrastructure in the module.",
      severity: 'error',
      from: { path: '(^|/)application/' },
      to: { path: '(^|/)infrastructure/' },
    },
    {
      name: 'persistence-in-infrastructure',
      comment:
        'One persistence style: only a module\'s infrastructure/ reaches Postgres (TypeORM, its ORM entities); domain, ' +
        'application and http code reach it through repository ports. The *.module.ts files, which bind ports to their ' +
        'implementations, register the ORM entities with TypeOrmModule. Of src/shared/database they use the plain ' +
        'TypeScript only (the opaque Transaction and its runner, batches, error kinds), never entityManager(tx) or the helpers ' +
        'that hand out an EntityManager.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/', pathNot: '/infrastructure/|[.]module[.]ts$' },
      to: {
        path: 'node_modules/(typeorm|@nestjs/typeorm)/|[.]orm-entity[.]ts$|^src/shared/database/',
        pathNot: '^src/shared/database/(transaction|batch-work|statement-batches|database-errors)[.]ts$',
      },
    },
    {
      name: 'domain-without-frameworks',
      comment: 'Domain code is plain TypeScript: no Nest, TypeORM, Fastify or drivers.',
      severity: 'error',
      from: { path: '(^|/)domain/' },
      to: { path: 'node_modules/(@nestjs/|typeorm/|fastify/|pg/|ioredis/|bull/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]spec[.]ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
