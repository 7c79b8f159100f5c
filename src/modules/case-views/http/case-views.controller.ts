import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { CASE_COLUMN_NAMES } from '../../cases/http/case-csv.js';
import { bodyListFilters, callerUserId } from '../../cases/http/list-filters.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseViewsService, type CountedView, VIEW_COUNT_CAP } from '../application/case-views.service.js';
import type { CaseView } from '../domain/case-view.js';
import { CreateCaseViewRequest, UpdateCaseViewRequest } from './case-view.request.js';

const ViewId = () => Param('viewId', new IdParamPipe('view'));
const NOT_YOURS = 'No such view, or another person\'s private view.';
const SHARING = 'Sharing a view, or changing or deleting a shared view of someone else, takes an admin.';
const INVALID = 'A body field that is not valid (`validation_errors` names each; the filters as the case list\'s query validation says, below `/filters`), or a cap reached (50 views per person, 50 shared views per organization).';

@Controller('api/admin/v1/views')
@RequiresRole('agent')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class CaseViewsController {
  constructor(private readonly views: CaseViewsService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createCaseView',
    summary: 'Save a view of the case list',
    description: 'Saves the case list\'s filters and columns under a name, for the caller alone or (`shared`, admins only) for everyone of the organization.',
    success: { status: 201, description: 'The view.', schema: wrapped('view', schemaRef('CaseView')) },
    errors: { 403: SHARING, 422: INVALID },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateCaseViewRequest) {
    const filters = await bodyListFilters(body.filters, '/filters', callerUserId(caller));
    const view = await this.views.create(caller, by, { name: body.name, filters, columns: body.columns ?? CASE_COLUMN_NAMES, shared: body.shared ?? false });
    return { view: viewJson(view) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listCaseViews',
    summary: 'List saved views',
    description: `The caller's own views and the organization's shared ones, oldest first, each with how many cases its filters match now, counted up to ${VIEW_COUNT_CAP.toLocaleString('en')} (\`count_capped\` when there are more). Each count is a list read of the organization (docs/list-filters.md): once its share of them is spent, the remaining views have a \`count\` of null, and so does a view whose filters the list no longer takes.`,
    success: { status: 200, description: 'The views.', schema: listOf('views', 'CountedCaseView') },
  })
  async list(@Principal() caller: Caller) {
    return { views: (await this.views.list(caller)).map(countedJson) };
  }

  @Patch(':viewId')
  @ApiEndpoint({
    operationId: 'updateCaseView',
    summary: 'Change a saved view',
    description: 'Any of a new view\'s fields, checked the same way. A private view is changed by its owner alone, a shared one by its owner or an admin.',
    success: { status: 200, description: 'The view.', schema: wrapped('view', schemaRef('CaseView')) },
    errors: { 403: SHARING, 404: NOT_YOURS, 422: INVALID },
  })
  async update(@Principal() caller: Caller, @ChangeAuthor() by: Author, @ViewId() id: number, @Body() body: UpdateCaseViewRequest) {
    const filters = body.filters === undefined ? undefined : await bodyListFilters(body.filters, '/filters', callerUserId(caller));
    return { view: viewJson(await this.views.update(caller, by, id, { name: body.name, filters, columns: body.columns, shared: body.shared })) };
  }

  @Delete(':viewId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteCaseView',
    summary: 'Delete a saved view',
    description: `A private view is deleted by its owner alone, a shared one by its owner or an admin. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 403: SHARING, 404: NOT_YOURS },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @ViewId() id: number) {
    await this.views.delete(caller, by, id);
  }
}

function viewJson(view: CaseView): Record<string, unknown> {
  return {
    id: view.id,
    name: view.name,
    filters: view.filters,
    columns: view.columns,
    shared: view.shared,
    owner: view.ownerId === null ? null : { id: view.ownerId },
    created_at: view.createdAt.toISOString(),
    updated_at: view.updatedAt.toISOString(),
  };
}

function countedJson({ view, count }: CountedView): Record<string, unknown> {
  return { ...viewJson(view), count: count?.count ?? null, count_capped: count?.capped ?? false };
}
