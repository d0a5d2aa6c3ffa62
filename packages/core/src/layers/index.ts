export { classifierFromLayersModel, type LayersModelAdapterOptions } from './classifier-from-layers-model';
